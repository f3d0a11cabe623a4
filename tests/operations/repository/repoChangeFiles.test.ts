// POST /repos/{owner}/{repo}/contents: several files created, updated, moved and deleted in one commit.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertCommitted, assertWriteGuards, b64 } from '../../helpers/files.js';
import { dirOf, disk, repoFor, roles, type Roles } from '../../helpers/gitFixtures.js';
import { messageOf, pathOf, raw, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type Body = components['schemas']['ChangeFilesOptions'];

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
  await disk.commit(dir, 'main', { 'keep.txt': 'keep\n', 'edit.txt': 'old\n', 'gone.txt': 'bye\n', 'old/name.txt': 'moving\n' });
});
test.after(async () => {
  await app.close();
});

const change = (target: Repository, body: Body, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/contents', { params: { path: pathOf(target) }, body });
const blobOf = async (path: string) => (await disk.run(dir, ['rev-parse', `main:${path}`])).trim();

test('201: create, update, rename, upload and delete in one commit; files answered in order, null when deleted', async () => {
  const before = (await disk.tip(dir, 'main'))!;
  const res = await change(repo, {
    files: [
      { operation: 'create', path: 'new/one.txt', content: b64('one\n') },
      { operation: 'update', path: 'edit.txt', content: b64('new\n'), sha: await blobOf('edit.txt') },
      { operation: 'rename', path: 'new/name.txt', from_path: 'old/name.txt' },
      { operation: 'upload', path: 'up.txt', content: b64('up\n') },
      { operation: 'delete', path: 'gone.txt', sha: await blobOf('gone.txt') },
    ],
  }, r.writer.auth);
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assertSpec('repoChangeFiles', res);
  const { files, commit } = res.data!;
  await assertCommitted(dir, 'main', commit.sha, before);
  assert.equal(await disk.files(dir, 'main'), ['README.md', 'edit.txt', 'keep.txt', 'new/name.txt', 'new/one.txt', 'up.txt']);
  assert.is((await disk.file(dir, 'main', 'new/name.txt')).toString(), 'moving\n', 'a rename without content keeps it');
  assert.is((await disk.file(dir, 'main', 'edit.txt')).toString(), 'new\n');
  assert.equal(files.map((f) => f?.path ?? null), ['new/one.txt', 'edit.txt', 'new/name.txt', 'up.txt', null]);
  assert.is(files[2]!.content, b64('moving\n'));
  assert.is(commit.message, 'Add new/one.txt\nUpdate edit.txt, new/name.txt, up.txt\nDelete gone.txt\n');
  assert.is((await disk.run(dir, ['rev-list', '--count', `${before}..main`])).trim(), '1', 'one commit');
});

test('201: update without sha (Gitea checks it only when given); onto a new branch', async () => {
  const before = (await disk.tip(dir, 'main'))!;
  const res = await change(repo, { files: [{ operation: 'update', path: 'keep.txt', content: b64('kept\n') }], new_branch: 'multi', message: 'm' }, r.owner.auth);
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  await assertCommitted(dir, 'multi', res.data!.commit.sha, before);
  assert.is(await disk.tip(dir, 'main'), before);
});

test('401, 403, 404, 423: callers who may not write', async () => {
  await assertWriteGuards(app, r, 'repoChangeFiles', repo, priv, async (target, auth) => {
    const res = await change(target, { files: [{ operation: 'create', path: 'guard.txt', content: b64('g') }] }, auth);
    return { status: res.response.status, body: res.data ?? res.error };
  });
});

test('404, 409 and 422: one bad file refuses the whole change', async () => {
  const before = await disk.tip(dir, 'main');
  const good = { operation: 'create' as const, path: 'fine.txt', content: b64('f') };
  const missing = await change(repo, { files: [good, { operation: 'delete', path: 'none.txt' }] }, r.writer.auth);
  assert.is(missing.response.status, 404);
  const stale = await change(repo, { files: [good, { operation: 'update', path: 'keep.txt', content: b64('x'), sha: 'f'.repeat(40) }] }, r.writer.auth);
  assert.is(stale.response.status, 409);
  assertSpec('repoChangeFiles', stale);
  assert.match(messageOf(stale.error), /sha does not match/);
  const cases: Array<[Body['files'][number], RegExp]> = [
    [{ operation: 'create', path: 'keep.txt', content: b64('x') }, /already exists/],
    [{ operation: 'create', path: '.git/hooks/x', content: b64('x') }, /malformed path/],
    [{ operation: 'create', path: 'b.txt', content: '***' }, /base64/],
  ];
  for (const [file, pattern] of cases) {
    const res = await change(repo, { files: [good, file] }, r.writer.auth);
    assert.is(res.response.status, 422, JSON.stringify(file));
    assertSpec('repoChangeFiles', res);
    assert.match(messageOf(res.error), pattern);
  }
  for (const body of [{}, { files: [] }, { files: [{ operation: 'move', path: 'x' }] }]) {
    const res = await raw(app, 'POST', `/repos/${repo.full_name}/contents`, { body: JSON.stringify(body), authorization: r.writer.auth });
    assert.is(res.response.status, 422, JSON.stringify(body));
    assertSpecAnswer('repoChangeFiles', 422, res.body);
  }
  assert.is(await disk.tip(dir, 'main'), before, 'nothing committed');
});

test.run();
