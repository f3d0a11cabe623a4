// listAdminWorkflowJobs (spec 1): every repository's jobs, by id (ascending unless order=desc), with
// Gitea's status filters and pages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, userRepo } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly, seedRuns } from '../../helpers/actions.js';
import type { ActionRunJobRow } from '../../../src/db/schema/index.js';

let app: TestApp;
let asAdmin: string;
let jobs: ActionRunJobRow[];
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['read:admin']);
  const ann = await actor(app);
  const repo = await userRepo(app, ann, { private: true });
  const states = ['waiting', 'blocked', 'running', 'success', 'failure', 'cancelled', 'skipped'] as const;
  // 40 runs of 3 jobs each: 120 jobs in every state.
  const runs = await seedRuns(app, repo, ann.id, Array.from({ length: 40 }, (_, i) => ({
    status: 'running' as const, jobs: [states[i % 7]!, states[(i + 2) % 7]!, states[(i + 5) % 7]!],
  })));
  jobs = runs.flatMap((r) => r.jobs);
});
test.after(async () => {
  await app.close();
});

type Query = { status?: string[]; page?: number; limit?: number; sort?: string; order?: string };
const list = (query: Query = {}, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).GET('/admin/actions/jobs', { params: { query: query as never } });

test('200: jobs by id ascending, with their run fields; order=desc reverses', async () => {
  const res = await list({ limit: 50 });
  assert.is(res.response.status, 200);
  assertSpec('listAdminWorkflowJobs', res);
  assert.is(res.data!.total_count, 120);
  assert.is(res.response.headers.get('x-total-count'), '120');
  assert.equal(res.data!.jobs.map((j) => j.id), jobs.slice(0, 50).map((j) => j.id));
  const j = res.data!.jobs[0]!;
  assert.is(j.name, 'job 0');
  assert.equal(j.labels, ['seed-label']);
  assert.is(j.run_id, jobs[0]!.runId);
  assert.match(j.url, new RegExp(`/api/v1/repos/.+/actions/jobs/${j.id}$`));
  assert.match(j.run_url, new RegExp(`/actions/runs/${j.run_id}$`));
  assert.is(j.head_branch, 'main');
  assert.equal(j.steps, []);
  assert.is(j.started_at, '0001-01-01T00:00:00Z', 'never started: the zero time');
  const desc = await list({ order: 'desc', sort: 'id', limit: 5 });
  assertSpec('listAdminWorkflowJobs', desc);
  assert.equal(desc.data!.jobs.map((x) => x.id), jobs.slice(-5).reverse().map((x) => x.id));
});

test('200: status filters (repeatable, OR-combined) as Gitea maps them', async () => {
  const n = (states: string[]) => jobs.filter((j) => states.includes(j.status)).length;
  const cases: Array<[string[], string[]]> = [
    [['queued'], ['waiting']],
    [['pending'], ['blocked']],
    [['requested', 'action_required'], ['blocked']],
    [['in_progress'], ['running']],
    [['completed'], ['success', 'failure', 'cancelled', 'skipped']],
    [['success', 'skipped'], ['success', 'skipped']],
    [['cancelled'], ['cancelled']],
  ];
  for (const [status, states] of cases) {
    const res = await list({ status, limit: 50 });
    assert.is(res.data!.total_count, n(states), status.join());
  }
  const queued = await list({ status: ['queued'], limit: 50 });
  assert.ok(queued.data!.jobs.every((j) => j.status === 'queued' && !j.conclusion));
  const skipped = await list({ status: ['neutral'], limit: 50 });
  assert.ok(skipped.data!.jobs.every((j) => j.status === 'completed' && j.conclusion === 'skipped'));
});

test('200: pages, X-Total-Count and Link', async () => {
  const p3 = await list({ page: 3, limit: 25 });
  assertSpec('listAdminWorkflowJobs', p3);
  assert.equal(p3.data!.jobs.map((j) => j.id), jobs.slice(50, 75).map((j) => j.id));
  assert.match(p3.response.headers.get('link') ?? '', /rel="next"/);
});

test('422: an unknown status or sort', async () => {
  for (const query of [{ status: ['done'] }, { sort: 'name' }, { order: 'up' }]) {
    const res = await list(query);
    assert.is(res.response.status, 422, JSON.stringify(query));
    assertSpec('listAdminWorkflowJobs', res);
  }
});

test('401, 403: anonymous, a plain user, a token without read:admin', async () => {
  await assertAdminOnly(app, 'listAdminWorkflowJobs', (auth) => list({}, auth), 'read:user');
});

test.run();
