import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, setArchived, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { getRepo, pathOf, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let empty: Repository;
let dir: string;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([
    repoFor(app, r),
    repoFor(app, r, { private: true }),
    repoFor(app, r, { auto_init: false }),
  ]);
  dir = dirOf(app, repo);
});
test.after(async () => {
  await app.close();
});

let n = 0;
/** A new branch of `target` (off main) named `prefix-N`. */
async function branch(target: Repository, prefix = 'gone'): Promise<string> {
  const name = `${prefix}-${n++}`;
  await disk.commit(dirOf(app, target), name, { [`${name}.txt`]: name }, { from: 'main' });
  return name;
}

const del = (target: Repository, name: string, authorization?: string) =>
  app.client(authorization).DELETE('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...pathOf(target), branch: name } } });

async function expectGone(target: Repository, name: string) {
  assert.is(await disk.tip(dirOf(app, target), name), undefined, `${name} is gone from git`);
  const res = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...pathOf(target), branch: name } } });
  assert.is(res.response.status, 404, `${name}: GET after DELETE`);
}

test('204: writers, the owner and the site admin delete a branch; git and the branch count follow', async () => {
  for (const who of [r.writer, r.owner, r.admin]) {
    const name = await branch(repo);
    const res = await del(repo, name, who.auth);
    assert.is(res.response.status, 204, who.username);
    assertSpec('repoDeleteBranch', res);
    assert.is(await res.response.text(), '');
    await expectGone(repo, name);
  }
  const count = (await disk.run(dir, ['for-each-ref', 'refs/heads/'])).trim().split('\n').length;
  assert.is((await getRepo(app, r.owner.username, repo.name, r.owner.auth)).data!.branch_count, count);
  assert.ok(await disk.tip(dir, 'main'), 'main untouched');
});

test('204: a name with slashes, as a literal path or escaped; Unicode; other branches stay', async () => {
  const keep = await branch(repo, 'feature/keep');
  for (const [name, path] of [
    ['feature/x', '/branches/feature/x'],
    ['feature/y', '/branches/feature%2Fy'],
    ['función/ñ', `/branches/${encodeURIComponent('función/ñ')}`],
  ] as const) {
    await disk.commit(dir, name, { 'f.txt': name }, { from: 'main' });
    const res = await fetch(`${app.url}/api/v1/repos/${repo.full_name}${path}`, { method: 'DELETE', headers: { Authorization: r.writer.auth } });
    assert.is(res.status, 204, name);
    await expectGone(repo, name);
  }
  assert.ok(await disk.tip(dir, keep), 'the other branch under feature/ stays');
});

test('204 in a private repository for its writer', async () => {
  const name = await branch(priv);
  assert.is((await del(priv, name, r.writer.auth)).response.status, 204);
  await expectGone(priv, name);
});

test('401: anonymous callers and a wrong token', async () => {
  const name = await branch(repo);
  for (const auth of [undefined, `token ${'0'.repeat(40)}`]) {
    const res = await del(repo, name, auth);
    assert.is(res.response.status, 401);
    assertSpec('repoDeleteBranch', res);
  }
  assert.equal((await del(repo, name)).error, { message: 'token is required', url: swaggerOf(app) });
  assert.ok(await disk.tip(dir, name));
});

test('403: readers and outsiders; a token without write:repository', async () => {
  const name = await branch(repo);
  for (const who of [r.reader, r.outsider]) {
    const res = await del(repo, name, who.auth);
    assert.is(res.response.status, 403, who.username);
    assertSpec('repoDeleteBranch', res);
    assert.equal(res.error, { message: 'user should have a permission to write to a repo', url: swaggerOf(app) });
  }
  const scoped = await del(repo, name, await wrongScope(app, r.owner, true));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [write:repository]', url: swaggerOf(app) });
  assert.is((await del(priv, 'main', r.reader.auth)).response.status, 403, 'reader of a private repository');
  assert.ok(await disk.tip(dir, name), 'still there');
});

test('403: the default branch, whoever asks', async () => {
  for (const who of [r.writer, r.owner, r.admin]) {
    const res = await del(repo, 'main', who.auth);
    assert.is(res.response.status, 403, who.username);
    assertSpec('repoDeleteBranch', res);
    assert.equal(res.error, { message: 'can not delete default branch', url: swaggerOf(app) });
  }
  assert.ok(await disk.tip(dir, 'main'));
});

test('404: no such branch (a tag or commit is not one), an empty repository, an invisible repository', async () => {
  const tip = (await disk.tip(dir, 'main'))!;
  await disk.run(dir, ['tag', 'v1', tip]);
  for (const name of ['nope', 'v1', tip, 'MAIN', 'a..b', 'x.lock']) {
    const res = await del(repo, name, r.owner.auth);
    assert.is(res.response.status, 404, name);
    assertSpec('repoDeleteBranch', res);
    assert.is(res.error, undefined, 'empty body');
  }
  assert.ok(await disk.rev(dir, 'refs/tags/v1'), 'the tag stays');
  for (const name of ['main', 'other']) {
    const res = await del(empty, name, r.owner.auth);
    assert.is(res.response.status, 404, `empty repository: ${name}`);
    assertSpec('repoDeleteBranch', res);
  }
  const name = await branch(priv);
  assert.is((await del(priv, name, r.outsider.auth)).response.status, 404, 'private, for an outsider');
  assert.is((await del({ full_name: `${r.owner.username}/nope` } as Repository, 'main', r.owner.auth)).response.status, 404);
  assert.ok(await disk.tip(dirOf(app, priv), name));
});

test('204 then 404: deleting one branch twice, also at the same time', async () => {
  const name = await branch(repo);
  assert.is((await del(repo, name, r.writer.auth)).response.status, 204);
  assert.is((await del(repo, name, r.writer.auth)).response.status, 404);
  const raced = await branch(repo);
  const answers = await Promise.all([r.writer, r.owner, r.admin].map((who) => del(repo, raced, who.auth)));
  for (const a of answers) assertSpec('repoDeleteBranch', a);
  assert.equal(answers.map((a) => a.response.status).sort(), [204, 404, 404]);
  await expectGone(repo, raced);
});

test('423: an archived repository, for writers; readers get 403 first', async () => {
  const archived = await repoFor(app, r);
  const name = await branch(archived);
  await setArchived(app, archived, r.owner);
  for (const who of [r.writer, r.owner, r.admin]) {
    const res = await del(archived, name, who.auth);
    assert.is(res.response.status, 423, who.username);
    assertSpec('repoDeleteBranch', res);
    assert.equal(res.error, { message: 'repo is archived', url: swaggerOf(app) });
  }
  assert.is((await del(archived, name, r.reader.auth)).response.status, 403);
  assert.ok(await disk.tip(dirOf(app, archived), name), 'still there');
});

test('422: a NUL character in the branch name', async () => {
  const res = await fetch(`${app.url}/api/v1/repos/${repo.full_name}/branches/ma%00in`, { method: 'DELETE', headers: { Authorization: r.owner.auth } });
  assert.is(res.status, 422);
  const body = await res.json();
  assertSpecAnswer('repoDeleteBranch', 422, body);
  assert.ok(await disk.tip(dir, 'main'));
});

test.run();
