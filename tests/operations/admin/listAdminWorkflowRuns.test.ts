// listAdminWorkflowRuns (spec 7): every repository's runs, newest first, with Gitea's filters and pages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, userRepo, type Actor, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly, seedRuns, type SeededRun } from '../../helpers/actions.js';

let app: TestApp;
let asAdmin: string;
let ann: Actor;
let bob: Actor;
let repoA: Repository;
let repoB: Repository;
let seeded: SeededRun[];
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['read:admin']);
  ann = await actor(app);
  bob = await actor(app);
  repoA = await userRepo(app, ann);
  repoB = await userRepo(app, bob, { private: true });
  // 120 runs over two repositories, in every state, two events, two branches, one tag.
  const states = ['waiting', 'blocked', 'running', 'success', 'failure', 'cancelled', 'skipped'] as const;
  const specs = (n: number, offset: number) => Array.from({ length: n }, (_, i) => ({
    status: states[(i + offset) % states.length]!,
    event: i % 5 === 0 ? 'workflow_dispatch' : 'push',
    ref: i % 4 === 0 ? 'refs/heads/dev' : i % 9 === 0 ? 'refs/tags/v1' : 'refs/heads/main',
  }));
  seeded = [...(await seedRuns(app, repoA, ann.id, specs(70, 0))), ...(await seedRuns(app, repoB, bob.id, specs(50, 3)))];
});
test.after(async () => {
  await app.close();
});

type Query = { event?: string; branch?: string; status?: string[]; actor?: string; head_sha?: string; page?: number; limit?: number };
const list = (query: Query = {}, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).GET('/admin/actions/runs', { params: { query: query as never } });

test('200: every repository (private ones too), newest first, with the run fields', async () => {
  const res = await list({ limit: 50 });
  assert.is(res.response.status, 200);
  assertSpec('listAdminWorkflowRuns', res);
  assert.is(res.data!.total_count, 120);
  assert.is(res.response.headers.get('x-total-count'), '120');
  const ids = res.data!.workflow_runs.map((r) => r.id);
  assert.equal(ids, [...ids].sort((a, b) => b - a));
  const last = seeded.at(-1)!.run;
  const first = res.data!.workflow_runs[0]!;
  assert.is(first.id, last.id);
  assert.is(first.run_number, last.index);
  assert.is(first.repository!.full_name, `${bob.username}/${repoB.name}`);
  assert.is(first.actor!.login, bob.username);
  assert.is(first.url, `${app.config.rootUrl}api/v1/repos/${bob.username}/${repoB.name}/actions/runs/${last.id}`);
  assert.is(first.jobs_url, `${first.url}/jobs`);
  assert.is(first.path, `seed.yml@${last.ref}`);
  assert.equal(first.pull_requests, []);
  assert.is(first.previous_attempt_url, null);
});

test('200: status filters map to states and combine with OR', async () => {
  const count = async (status: string[]) => (await list({ status, limit: 1 })).data!.total_count;
  const n = (states: string[]) => seeded.filter((s) => states.includes(s.run.status)).length;
  assert.is(await count(['queued']), n(['waiting']));
  assert.is(await count(['in_progress']), n(['running']));
  assert.is(await count(['pending']), n(['blocked']));
  assert.is(await count(['waiting']), n(['blocked']));
  assert.is(await count(['completed']), n(['success', 'failure', 'cancelled', 'skipped']));
  assert.is(await count(['neutral']), n(['skipped']));
  assert.is(await count(['timed_out']), n(['cancelled']));
  assert.is(await count(['success', 'failure']), n(['success', 'failure']));
  const running = await list({ status: ['in_progress'], limit: 50 });
  assert.ok(running.data!.workflow_runs.every((r) => r.status === 'in_progress' && r.conclusion === undefined));
  const done = await list({ status: ['failure'], limit: 50 });
  assert.ok(done.data!.workflow_runs.every((r) => r.status === 'completed' && r.conclusion === 'failure'));
});

test('200: event, branch, actor and head_sha filters, combined with AND', async () => {
  const n = (f: (s: SeededRun) => boolean) => seeded.filter(f).length;
  assert.is((await list({ event: 'workflow_dispatch' })).data!.total_count, n((s) => s.run.event === 'workflow_dispatch'));
  assert.is((await list({ branch: 'dev' })).data!.total_count, n((s) => s.run.ref === 'refs/heads/dev'));
  assert.is((await list({ branch: 'v1' })).data!.total_count, 0, 'a tag is not a branch');
  assert.is((await list({ actor: ann.username.toUpperCase() })).data!.total_count, 70);
  assert.is((await list({ actor: bob.username, branch: 'main', event: 'push' })).data!.total_count, n((s) => s.run.triggerUserId === bob.id && s.run.ref === 'refs/heads/main' && s.run.event === 'push'));
  const one = seeded[17]!.run;
  const bySha = await list({ head_sha: one.commitSha });
  assert.equal(bySha.data!.workflow_runs.map((r) => r.id), [one.id]);
});

test('200: pages, X-Total-Count and Link', async () => {
  const all = (await list({ limit: 50 })).data!.workflow_runs.map((r) => r.id);
  const p2 = await list({ page: 2, limit: 20 });
  assertSpec('listAdminWorkflowRuns', p2);
  assert.equal(p2.data!.workflow_runs.map((r) => r.id), all.slice(20, 40));
  assert.match(p2.response.headers.get('link') ?? '', /rel="next".*rel="last".*rel="first".*rel="prev"/);
  assert.equal((await list({ page: 9, limit: 20 })).data!.workflow_runs, []);
});

test('422: an unknown status, an actor that names nobody', async () => {
  const bad = await list({ status: ['finished'] });
  assert.is(bad.response.status, 422);
  assertSpec('listAdminWorkflowRuns', bad);
  const nobody = await list({ actor: 'nobody-at-all' });
  assert.is(nobody.response.status, 422);
  assertSpec('listAdminWorkflowRuns', nobody);
  assert.match((nobody.error as { message: string }).message, /nobody-at-all/);
});

test('401, 403: anonymous, a plain user, a token without read:admin', async () => {
  await assertAdminOnly(app, 'listAdminWorkflowRuns', (auth) => list({}, auth), 'read:user');
});

test.run();
