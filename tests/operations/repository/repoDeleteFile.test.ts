// DELETE /repos/{owner}/{repo}/contents/{filepath}: remove a file whose current `sha` the caller names.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertCommitted, assertWriteGuards } from '../../helpers/files.js';
import { dirOf, disk, repoFor, roles, type Roles } from '../../helpers/gitFixtures.js';
import { messageOf, pathOf, raw, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let dir: string;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
  dir = dirOf(app, repo);
  await disk.commit(dir, 'main', { 'a.txt': 'a\n', 'docs/b.md': 'b\n', 'docs/c.md': 'c\n' });
});
test.after(async () => {
  await app.close();
});

const remove = (target: Repository, filepath: string, body: { sha: string; branch?: string; new_branch?: string; message?: string; committer?: { name?: string; email?: string } }, authorization?: string) =>
  app.client(authorization).DELETE('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...pathOf(target), filepath } }, body });
const blobOf = async (path: string) => (await disk.run(dir, ['rev-parse', `main:${path}`])).trim();

test('200: content null, the commit removes the file (Gitea\'s default message)', async () => {
  const before = (await disk.tip(dir, 'main'))!;
  const res = await remove(repo, 'docs/b.md', { sha: await blobOf('docs/b.md') }, r.writer.auth);
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  assertSpec('repoDeleteFile', res);
  assert.is(res.data!.content, null);
  assert.is(res.data!.commit.message, 'Delete docs/b.md\n');
  await assertCommitted(dir, 'main', res.data!.commit.sha, before);
  assert.equal(await disk.files(dir, 'main'), ['README.md', 'a.txt', 'docs/c.md']);
});

test('200: onto a new branch; the base stays', async () => {
  const before = (await disk.tip(dir, 'main'))!;
  const res = await remove(repo, 'a.txt', { sha: await blobOf('a.txt'), new_branch: 'no-a', message: 'drop a' }, r.owner.auth);
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  await assertCommitted(dir, 'no-a', res.data!.commit.sha, before);
  assert.is(await disk.tip(dir, 'main'), before);
  assert.is(res.data!.commit.message, 'drop a\n');
});

test('200: a committer whose name and e-mail git would leave empty counts as not given: the caller commits', async () => {
  for (const [i, committer] of [{ name: ' ' }, { name: '...' }, { name: '\n' }].entries()) {
    const res = await remove(repo, 'a.txt', { sha: await blobOf('a.txt'), new_branch: `blank-${i}`, committer }, r.writer.auth);
    assert.is(res.response.status, 200, JSON.stringify(res.error));
    assert.is(res.data!.commit.committer.email, r.writer.email, JSON.stringify(committer));
  }
});

test('401, 403, 404, 423: callers who may not write', async () => {
  const sha = await blobOf('a.txt');
  await assertWriteGuards(app, r, 'repoDeleteFile', repo, priv, async (target, auth) => {
    const res = await remove(target, 'a.txt', { sha }, auth);
    return { status: res.response.status, body: res.data ?? res.error };
  });
});

test('404: no such file or branch; 409: a stale sha; 422: a missing sha, a directory', async () => {
  const before = await disk.tip(dir, 'main');
  const sha = await blobOf('a.txt');
  assert.is((await remove(repo, 'none.txt', { sha }, r.writer.auth)).response.status, 404);
  assert.is((await remove(repo, 'a.txt', { sha, branch: 'nope' }, r.writer.auth)).response.status, 404);
  const stale = await remove(repo, 'a.txt', { sha: await blobOf('docs/c.md') }, r.writer.auth);
  assert.is(stale.response.status, 409);
  assertSpec('repoDeleteFile', stale);
  assert.match(messageOf(stale.error), /sha does not match/);
  const folder = await remove(repo, 'docs', { sha: await blobOf('docs') }, r.writer.auth);
  assert.is(folder.response.status, 422);
  assert.match(messageOf(folder.error), /directory/);
  const missing = await raw(app, 'DELETE', `/repos/${repo.full_name}/contents/a.txt`, { body: '{}', authorization: r.writer.auth });
  assert.is(missing.response.status, 422);
  assertSpecAnswer('repoDeleteFile', 422, missing.body);
  assert.is(await disk.tip(dir, 'main'), before);
});

test.run();
