import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { pathOf, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { bulkStatuses, report, type CommitStatus } from '../../helpers/statuses.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let empty: Repository;
let first: string;
let big: string;
let made: CommitStatus[];

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true }), repoFor(app, r, { auto_init: false })]);
  const dir = dirOf(app, repo);
  first = (await disk.tip(dir, 'main'))!;
  big = await disk.commit(dir, 'big', { 'b.txt': 'b' }, { from: first });
  made = [];
  for (const [state, context] of [['pending', 'ci/a'], ['success', 'ci/a'], ['failure', 'ci/b'], ['success', 'ci/b'], ['warning', 'lint']] as const) {
    made.push(await report(app, r.writer.auth, repo, first, { state, context }));
  }
  await report(app, r.writer.auth, priv, 'main', { state: 'success' });
});
test.after(async () => {
  await app.close();
});

/** `auth` null: anonymous. */
const list = (sha: string, query: Record<string, unknown> = {}, auth: string | null = r.reader.auth, target = repo) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/statuses/{sha}', { params: { path: { ...pathOf(target), sha }, query: query as never } });

const ids = (res: Awaited<ReturnType<typeof list>>) => res.data!.map((s) => s.id);

test('200: newest first by default; every sort; the state filter', async () => {
  const res = await list(first);
  assert.is(res.response.status, 200);
  assertSpec('repoListStatuses', res);
  assert.equal(ids(res), [5, 4, 3, 2, 1]);
  assert.is(res.response.headers.get('x-total-count'), '5');
  const cases: Array<[string, number[]]> = [
    ['oldest', [1, 2, 3, 4, 5]],
    ['recentupdate', [5, 4, 3, 2, 1]],
    ['leastupdate', [1, 2, 3, 4, 5]],
    ['leastindex', [5, 4, 3, 2, 1]],
    ['highestindex', [1, 2, 3, 4, 5]],
  ];
  for (const [sort, want] of cases) assert.equal(ids(await list(first, { sort })), want, sort);
  for (const [state, want] of [['success', [4, 2]], ['failure', [3]], ['warning', [5]], ['pending', [1]], ['error', []]] as const) {
    const res = await list(first, { state });
    assert.equal(ids(res), want, state);
    assert.is(res.response.headers.get('x-total-count'), String(want.length));
  }
  const mine = (await list(first, { sort: 'oldest' }, r.writer.auth)).data!;
  assert.equal(mine[0], made[0], 'the list shows what the report answered');
});

test('200: a short id, a branch and a tag are expanded; an unknown sha lists nothing', async () => {
  await disk.run(dirOf(app, repo), ['tag', 'first-tag', first]);
  for (const sha of [first.slice(0, 7), 'main', 'first-tag']) assert.equal(ids(await list(sha)), [5, 4, 3, 2, 1], sha);
  for (const sha of ['f'.repeat(40), 'nope']) {
    const res = await list(sha);
    assert.is(res.response.status, 200, sha);
    assert.equal(res.data, []);
    assert.is(res.response.headers.get('x-total-count'), '0');
  }
  const e = await list('main', {}, r.owner.auth, empty);
  assert.equal([e.response.status, e.data], [200, []]);
});

test('200: 10,000 statuses on one commit, paginated in SQL with X-Total-Count and Link', async () => {
  const owner = await app.services.users.byName(r.owner.username);
  await bulkStatuses(app, repo.id, big, 10_000, owner!.id);
  const res = await list(big, { page: 3, limit: 50, sort: 'highestindex' });
  assert.is(res.response.status, 200);
  assert.equal(ids(res), Array.from({ length: 50 }, (_, i) => 101 + i));
  assert.is(res.response.headers.get('x-total-count'), '10000');
  const link = res.response.headers.get('link')!;
  assert.match(link, /page=4&limit=50&sort=highestindex>; rel="next"/);
  assert.match(link, /page=200&limit=50&sort=highestindex>; rel="last"/);
  assert.match(link, /page=2&limit=50&sort=highestindex>; rel="prev"/);
  const last = await list(big, { page: 200, limit: 50 });
  assert.equal(ids(last)[49], 1, 'the last page of the newest-first order ends with the first status');
  const filtered = await list(big, { state: 'error', limit: 1 });
  assert.is(filtered.response.headers.get('x-total-count'), '2000');
  const report2 = await report(app, r.writer.auth, repo, big, { state: 'success', context: 'after bulk' });
  assert.is(report2.id, 10_001, 'numbering continues after the bulk rows');
});

test('200: anonymous callers and outsiders on a public repository; readers of a private one', async () => {
  for (const auth of [null, r.outsider.auth]) assert.is((await list(first, {}, auth)).response.status, 200);
  const p = await list('main', {}, r.reader.auth, priv);
  assert.equal([p.response.status, p.data!.length], [200, 1]);
});

test('401, 403, 404: a wrong token, a token without read:repository, an invisible repository', async () => {
  assert.is((await list(first, {}, `token ${'0'.repeat(40)}`)).response.status, 401);
  const scoped = await list(first, {}, await wrongScope(app, r.owner, false));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  for (const auth of [null, r.outsider.auth]) {
    const res = await list('main', {}, auth, priv);
    assert.is(res.response.status, 404);
    assertSpec('repoListStatuses', res);
  }
});

test('422: an unknown sort or state', async () => {
  for (const query of [{ sort: 'newest' }, { state: 'skipped' }, { state: 'green' }]) {
    const res = await list(first, query);
    assert.is(res.response.status, 422, JSON.stringify(query));
    assertSpec('repoListStatuses', res);
  }
});

test.run();
