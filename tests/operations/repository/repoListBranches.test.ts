import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { linksOf } from '../../helpers/orgs.js';
import { pathOf, swaggerOf, type Actor, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let empty: Repository;
let dir: string;
/** Every branch of `repo` in Gitea's order: newest head commit first, then by name. */
let expected: string[];

const day = (d: string) => new Date(`${d}T12:00:00Z`);

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([
    repoFor(app, r),
    repoFor(app, r, { private: true }),
    repoFor(app, r, { auto_init: false }),
  ]);
  dir = dirOf(app, repo);
  // main's initial commit is from now: the newest.
  await disk.commit(dir, 'zeta', { 'z.txt': 'z' }, { from: 'main', date: day('2024-05-01') });
  await disk.commit(dir, 'alpha', { 'a.txt': 'a' }, { from: 'main', date: day('2024-05-01') });
  await disk.commit(dir, 'feature/x', { 'x.txt': 'x' }, { from: 'main', date: day('2023-01-01') });
  await disk.commit(dir, 'Beta', { 'b.txt': 'b' }, { from: 'main', date: day('2022-01-01') });
  await disk.commit(dir, 'old', { 'o.txt': 'o' }, { from: 'main', date: day('2001-01-01') });
  const alphaTip = (await disk.tip(dir, 'alpha'))!;
  await disk.run(dir, ['update-ref', 'refs/heads/same-as-alpha', alphaTip]);
  await disk.run(dir, ['tag', 'not-a-branch', alphaTip]);
  expected = ['main', 'alpha', 'same-as-alpha', 'zeta', 'feature/x', 'Beta', 'old'];
});
test.after(async () => {
  await app.close();
});

const list = (target: Repository, query: { page?: number; limit?: number } = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/branches', { params: { path: pathOf(target), query } });

test('200: every branch, newest head commit first then by name, each with its head commit from git', async () => {
  const res = await list(repo, {}, r.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoListBranches', res);
  assert.equal(res.data!.map((b) => b.name), expected);
  assert.is(res.response.headers.get('X-Total-Count'), String(expected.length));
  assert.is(res.response.headers.get('Link'), null, 'one page: no links');
  assert.match(res.response.headers.get('Access-Control-Expose-Headers') ?? '', /X-Total-Count/);
  const html = `${app.config.rootUrl}${repo.full_name}`;
  for (const b of res.data!) {
    const tip = (await disk.tip(dir, b.name))!;
    assert.is(b.commit.id, tip, b.name);
    assert.is(b.commit.url, `${html}/commit/${tip}`);
    assert.is(b.commit.message, (await disk.run(dir, ['cat-file', 'commit', tip])).split('\n\n').slice(1).join('\n\n'), b.name);
    assert.equal([b.commit.added, b.commit.removed, b.commit.modified], [[], [], []]);
    assert.is(b.protected, false);
    assert.is(b.effective_branch_protection_name, '');
  }
  const alpha = res.data!.find((b) => b.name === 'alpha')!;
  assert.is(alpha.commit.timestamp, '2024-05-01T12:00:00Z');
  const main = res.data!.find((b) => b.name === 'main')!;
  assert.equal(main.commit.author, { name: r.owner.username, email: r.owner.email, username: r.owner.username });
});

test('200: pagination with X-Total-Count and Link (next, last, first, prev)', async () => {
  const pages: string[] = [];
  for (let page = 1; page <= 4; page++) {
    const res = await list(repo, { page, limit: 2 }, r.reader.auth);
    assert.is(res.response.status, 200);
    assertSpec('repoListBranches', res);
    assert.is(res.response.headers.get('X-Total-Count'), '7');
    pages.push(...res.data!.map((b) => b.name));
    const links = linksOf(res.response.headers.get('Link'));
    if (page < 4) {
      assert.is(res.data!.length, 2);
      assert.equal(links.next, { page: page + 1, limit: 2 });
      assert.equal(links.last, { page: 4, limit: 2 });
    } else {
      assert.is(res.data!.length, 1);
      assert.is(links.next, undefined);
    }
    if (page > 1) {
      assert.equal(links.first, { page: 1, limit: 2 });
      assert.equal(links.prev, { page: page - 1, limit: 2 });
    } else {
      assert.is(links.prev, undefined);
    }
  }
  assert.equal(pages, expected, 'the pages together are the whole list, in order');
  const link = (await list(repo, { page: 2, limit: 2 })).response.headers.get('Link')!;
  assert.ok(link.startsWith(`<${app.config.rootUrl}api/v1/repos/${repo.full_name}/branches?`), link);

  const beyond = await list(repo, { page: 9, limit: 2 });
  assert.is(beyond.response.status, 200);
  assert.equal(beyond.data, []);
  assert.is(beyond.response.headers.get('X-Total-Count'), '7');

  for (const query of [{ page: 0 }, { page: -3, limit: 0 }, { limit: -1 }]) {
    const res = await list(repo, query);
    assert.equal(res.data!.map((b) => b.name), expected, `${JSON.stringify(query)}: page 1 with the default size`);
  }
  const clamped = await list(repo, { limit: 500 });
  assert.is(clamped.data!.length, 7);
  assert.equal(linksOf(clamped.response.headers.get('Link')), {});
});

test('200: anonymous callers, outsiders and readers may not push; writers, the owner and the site admin may', async () => {
  const cases: Array<[string | undefined, boolean, string]> = [
    [undefined, false, 'anonymous'],
    [r.outsider.auth, false, 'outsider'],
    [r.reader.auth, false, 'reader'],
    [r.writer.auth, true, 'writer'],
    [r.owner.auth, true, 'owner'],
    [r.admin.auth, true, 'site admin'],
    [await app.token(r.writer, ['read:repository']), true, 'writer with a read:repository token'],
  ];
  for (const [auth, push, label] of cases) {
    const res = await list(repo, {}, auth);
    assert.is(res.response.status, 200, label);
    assertSpec('repoListBranches', res);
    assert.is(res.data!.length, 7, label);
    for (const b of res.data!) {
      assert.is(b.user_can_push, push, `${label} ${b.name}`);
      assert.is(b.user_can_merge, push, `${label} ${b.name}`);
    }
  }
});

test('200: a private repository for its collaborators and the site admin; 404 (empty) for the others', async () => {
  for (const who of [r.reader, r.writer, r.owner, r.admin]) {
    const res = await list(priv, {}, who.auth);
    assert.is(res.response.status, 200, who.username);
    assert.equal(res.data!.map((b) => b.name), ['main']);
  }
  const hidden: Array<[string | undefined, string]> = [[undefined, 'anonymous'], [r.outsider.auth, 'outsider']];
  for (const [auth, label] of hidden) {
    const res = await list(priv, {}, auth);
    assert.is(res.response.status, 404, label);
    assertSpec('repoListBranches', res);
    assert.is(res.error, undefined, 'empty body');
  }
  const unknown = await list({ full_name: `${r.owner.username}/nope` } as Repository, {}, r.owner.auth);
  assert.is(unknown.response.status, 404);
});

test('200: an empty repository answers an empty list', async () => {
  const res = await list(empty, {}, r.writer.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoListBranches', res);
  assert.equal(res.data, []);
  assert.is(res.response.headers.get('X-Total-Count'), '0');
  assert.is(res.response.headers.get('Link'), null);
});

test('401: a wrong token, even on a public repository', async () => {
  const res = await list(repo, {}, `token ${'0'.repeat(40)}`);
  assert.is(res.response.status, 401);
  assertSpec('repoListBranches', res);
});

test('403: a token without the repository scope', async () => {
  for (const target of [repo, priv]) {
    const res = await list(target, {}, await wrongScope(app, r.owner as Actor, false));
    assert.is(res.response.status, 403);
    assertSpec('repoListBranches', res);
    assert.equal(res.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  }
});

test('422: page and limit that are not integers', async () => {
  for (const query of ['page=abc', 'limit=1.5', 'limit=x']) {
    const res = await fetch(`${app.url}/api/v1/repos/${repo.full_name}/branches?${query}`);
    assert.is(res.status, 422, query);
    const body = await res.json();
    assert.match(body.message, /page|limit/, query);
  }
});

test.run();
