// listWorkflowRunJobs: the jobs of one run, with the status filter, for every role.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertActionsReadRoles, seedRuns, type ActionsWorld, type SeededRun } from '../../helpers/actions.js';

let app: TestApp;
let w: ActionsWorld;
let pubRun: SeededRun;
let privRun: SeededRun;
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
  pubRun = (await seedRuns(app, w.pub, w.owner.id, [{ status: 'running', jobs: ['success', 'running', 'blocked', 'waiting'] }, { status: 'success' }]))[0]!;
  privRun = (await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]))[0]!;
});
test.after(async () => {
  await app.close();
});

const list = (repo: Repository, run: number, query: { status?: string[]; page?: number; limit?: number } = {}, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/actions/runs/{run}/jobs', { params: { path: { owner: repo.owner!.login, repo: repo.name, run }, query: query as never } });

test('200: the run\'s jobs by id; status filters; pages', async () => {
  const res = await list(w.pub, pubRun.run.id);
  assert.is(res.response.status, 200);
  assertSpec('listWorkflowRunJobs', res);
  assert.equal(res.data!.jobs.map((j) => j.id), pubRun.jobs.map((j) => j.id));
  assert.equal(res.data!.jobs.map((j) => j.status), ['completed', 'in_progress', 'pending', 'queued']);
  assert.is(res.data!.total_count, 4);
  assert.equal((await list(w.pub, pubRun.run.id, { status: ['pending', 'queued'] })).data!.jobs.map((j) => j.name), ['job 2', 'job 3']);
  const p2 = await list(w.pub, pubRun.run.id, { limit: 3, page: 2 });
  assert.equal(p2.data!.jobs.map((j) => j.id), [pubRun.jobs[3]!.id]);
  assert.is(p2.response.headers.get('x-total-count'), '4');
});

test('roles', async () => {
  await assertActionsReadRoles(app, w, 'listWorkflowRunJobs', (repo, auth) => list(repo, repo.id === w.pub.id ? pubRun.run.id : privRun.run.id, {}, auth));
});

test('404: an unknown run or one of another repository; 422: an unknown status', async () => {
  for (const id of [424242, privRun.run.id]) {
    const res = await list(w.pub, id);
    assert.is(res.response.status, 404);
    assertSpec('listWorkflowRunJobs', res);
  }
  const bad = await list(w.pub, pubRun.run.id, { status: ['sleeping'] });
  assert.is(bad.response.status, 422);
  assertSpec('listWorkflowRunJobs', bad);
});

test.run();
