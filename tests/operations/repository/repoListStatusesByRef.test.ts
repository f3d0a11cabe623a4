import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { pathOf, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { report } from '../../helpers/statuses.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let empty: Repository;
let first: string;
let branchTip: string;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true }), repoFor(app, r, { auto_init: false })]);
  const dir = dirOf(app, repo);
  first = (await disk.tip(dir, 'main'))!;
  branchTip = await disk.commit(dir, 'release/1.x', { 'r.txt': 'r' }, { from: first });
  await disk.run(dir, ['tag', 'v1.0', branchTip]);
  // A branch named like the other commit's id: branches win, as in Gitea.
  await disk.run(dir, ['branch', first.slice(0, 10), branchTip]);
  for (const [state, context] of [['pending', 'ci'], ['failure', 'lint'], ['success', 'ci']] as const) {
    await report(app, r.writer.auth, repo, branchTip, { state, context });
  }
  await report(app, r.writer.auth, repo, first, { state: 'error', context: 'on-first' });
});
test.after(async () => {
  await app.close();
});

/** `auth` null: anonymous. */
const list = (ref: string, query: Record<string, unknown> = {}, auth: string | null = r.reader.auth, target = repo) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/commits/{ref}/statuses', { params: { path: { ...pathOf(target), ref }, query: query as never } });

test('200: a branch (with a slash), a tag, a commit id: the statuses of the commit it names', async () => {
  for (const ref of ['release/1.x', 'v1.0', branchTip, branchTip.slice(0, 8), first.slice(0, 10)]) {
    const res = await list(ref);
    assert.is(res.response.status, 200, ref);
    assertSpec('repoListStatusesByRef', res);
    assert.equal(res.data!.map((s) => [s.id, s.context, s.status]), [[3, 'ci', 'success'], [2, 'lint', 'failure'], [1, 'ci', 'pending']], ref);
    assert.ok(res.data!.every((s) => s.url.endsWith(`/statuses/${branchTip}`)));
    assert.is(res.response.headers.get('x-total-count'), '3');
  }
  const onFirst = await list(first);
  assert.equal(onFirst.data!.map((s) => s.context), ['on-first']);
});

test('200: sort, state and pagination as on the sha list', async () => {
  const res = await list('release/1.x', { sort: 'oldest', state: 'pending' });
  assert.equal(res.data!.map((s) => s.id), [1]);
  const paged = await list('release/1.x', { limit: 1, page: 2 });
  assert.equal(paged.data!.map((s) => s.id), [2]);
  assert.is(paged.response.headers.get('x-total-count'), '3');
  assert.match(paged.response.headers.get('link')!, /rel="next"/);
});

test('200: anonymous callers on a public repository; readers of a private one', async () => {
  assert.is((await list('main', {}, null)).response.status, 200);
  await report(app, r.writer.auth, priv, 'main', { state: 'success' });
  const p = await list('main', {}, r.reader.auth, priv);
  assert.equal([p.response.status, p.data!.length], [200, 1]);
});

test('404: a ref that names nothing, an empty repository, an invisible repository', async () => {
  for (const ref of ['nope', 'f'.repeat(40), 'main~99']) {
    const res = await list(ref);
    assert.is(res.response.status, 404, ref);
    assertSpec('repoListStatusesByRef', res);
  }
  assert.is((await list('main', {}, r.owner.auth, empty)).response.status, 404);
  for (const auth of [null, r.outsider.auth]) assert.is((await list('main', {}, auth, priv)).response.status, 404);
});

test('401, 403, 422: a wrong token; a token without read:repository; an unknown sort', async () => {
  assert.is((await list('main', {}, `token ${'0'.repeat(40)}`)).response.status, 401);
  const scoped = await list('main', {}, await wrongScope(app, r.owner, false));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  const bad = await list('main', { sort: 'sideways' });
  assert.is(bad.response.status, 422);
  assertSpec('repoListStatusesByRef', bad);
});

test.run();
