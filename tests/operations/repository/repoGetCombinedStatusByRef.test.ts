import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { pathOf, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { report, setStatuses, states, type State } from '../../helpers/statuses.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let empty: Repository;
let dir: string;
let first: string;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true }), repoFor(app, r, { auto_init: false })]);
  dir = dirOf(app, repo);
  first = (await disk.tip(dir, 'main'))!;
});
test.after(async () => {
  await app.close();
});

/** `auth` null: anonymous. */
const combined = (ref: string, query: Record<string, unknown> = {}, auth: string | null = r.reader.auth, target = repo) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/commits/{ref}/status', { params: { path: { ...pathOf(target), ref }, query: query as never } });

/** The rule, written out: the worst latest state; skipped only when all are; '' for none. */
function expected(latest: State[]): string {
  if (latest.length === 0) return '';
  const order: State[] = ['error', 'failure', 'warning', 'pending', 'success'];
  const counted: State[] = latest.filter((s) => s !== 'skipped');
  if (counted.length === 0) return 'skipped';
  return order.find((s) => counted.includes(s))!;
}

test('200: the latest status of each context, newest first; the combined state; the commit and repository', async () => {
  const tip = await disk.commit(dir, 'feature/x', { 'x.txt': 'x' }, { from: first });
  await report(app, r.writer.auth, repo, tip, { state: 'pending', context: 'ci/a' });
  await report(app, r.writer.auth, repo, tip, { state: 'failure', context: 'ci/b' });
  const a2 = await report(app, r.writer.auth, repo, tip, { state: 'success', context: 'ci/a', description: 'done' });
  const b2 = await report(app, r.writer.auth, repo, tip, { state: 'success', context: 'ci/b' });
  const res = await combined('feature/x');
  assert.is(res.response.status, 200);
  assertSpec('repoGetCombinedStatusByRef', res);
  const api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}`;
  const c = res.data!;
  assert.equal([c.state, c.sha, c.total_count, c.commit_url, c.url], ['success', tip, 2, `${api}/commits/${tip}`, `${api}/commits/${tip}/status`]);
  assert.equal(c.statuses.map((s) => [s.id, s.context, s.status]), [[4, 'ci/b', 'success'], [3, 'ci/a', 'success']]);
  assert.equal(c.statuses[1]!.description, a2.description);
  assert.is(c.statuses[0]!.id, b2.id);
  assert.is(c.repository.full_name, repo.full_name);
  assert.is(res.response.headers.get('x-total-count'), '2');
  // A tag and the commit id (full and abbreviated) name the same commit.
  await disk.run(dir, ['tag', 'tagged-x', tip]);
  for (const ref of ['tagged-x', tip, tip.slice(0, 9)]) assert.equal((await combined(ref)).data, c, ref);
});

test('200: the combined state for mixes of states (latest per context), against the rule', async () => {
  // The reports go in as rows (POST has its own tests): one commit, its statuses replaced for each case.
  const tip = await disk.commit(dir, 'mixes', { 'm.txt': 'm' }, { from: first });
  const creator = (await app.services.users.byName(r.writer.username))!.id;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ context: fc.constantFrom('a', 'b', 'c', 'd'), state: fc.constantFrom(...states) }), { maxLength: 7 }),
      async (reports) => {
        await setStatuses(app, repo.id, tip, reports, creator);
        const latest = new Map<string, State>();
        for (const x of reports) latest.set(x.context, x.state);
        const res = await combined(tip);
        assert.is(res.response.status, 200);
        assert.is(res.data!.state, expected([...latest.values()]), JSON.stringify(reports));
        assert.is(res.data!.total_count, latest.size);
        assert.equal(new Set(res.data!.statuses.map((s) => `${s.context}=${s.status}`)), new Set([...latest].map(([k, v]) => `${k}=${v}`)));
      },
    ),
    { numRuns: 60 },
  );
  // Every pair of states, as two contexts, in both orders.
  for (const a of states) {
    for (const b of states) {
      await setStatuses(app, repo.id, tip, [{ state: a, context: 'one' }, { state: b, context: 'two' }], creator);
      assert.is((await combined(tip)).data!.state, expected([a, b]), `${a}+${b}`);
    }
  }
});

test('200: no status yet: an empty state and no statuses', async () => {
  const res = await combined('main');
  assert.is(res.response.status, 200);
  assertSpec('repoGetCombinedStatusByRef', res);
  assert.equal([res.data!.state, res.data!.sha, res.data!.total_count, res.data!.statuses], ['', first, 0, []]);
  assert.is(res.response.headers.get('x-total-count'), '0');
});

test('200: paginated by context, while the state covers every context', async () => {
  const tip = await disk.commit(dir, 'many', { 'many.txt': 'm' }, { from: first });
  await report(app, r.writer.auth, repo, tip, { state: 'error', context: 'c0' });
  for (let i = 1; i <= 5; i++) await report(app, r.writer.auth, repo, tip, { state: 'success', context: `c${i}` });
  const page1 = await combined('many', { limit: 2 });
  assert.equal(page1.data!.statuses.map((s) => s.context), ['c5', 'c4']);
  assert.equal([page1.data!.state, page1.data!.total_count], ['error', 6]);
  assert.is(page1.response.headers.get('x-total-count'), '6');
  const page3 = await combined('many', { limit: 2, page: 3 });
  assert.equal(page3.data!.statuses.map((s) => s.context), ['c1', 'c0']);
});

test('200: anonymous callers on a public repository; readers of a private one', async () => {
  assert.is((await combined('main', {}, null)).response.status, 200);
  await report(app, r.writer.auth, priv, 'main', { state: 'failure' });
  const p = await combined('main', {}, r.reader.auth, priv);
  assert.equal([p.response.status, p.data!.state], [200, 'failure']);
});

test('404: a ref that names nothing, an empty repository, an invisible repository', async () => {
  for (const ref of ['nope', 'f'.repeat(40), 'main~99']) {
    const res = await combined(ref);
    assert.is(res.response.status, 404, ref);
    assertSpec('repoGetCombinedStatusByRef', res);
  }
  assert.is((await combined('main', {}, r.owner.auth, empty)).response.status, 404);
  for (const auth of [null, r.outsider.auth]) assert.is((await combined('main', {}, auth, priv)).response.status, 404);
});

test('401, 403: a wrong token; a token without read:repository', async () => {
  assert.is((await combined('main', {}, `token ${'0'.repeat(40)}`)).response.status, 401);
  const scoped = await combined('main', {}, await wrongScope(app, r.owner, false));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
});

test.run();
