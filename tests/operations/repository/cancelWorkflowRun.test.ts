// cancelWorkflowRun: the jobs that have not ended are cancelled (a runner running one is told at its next
// report); an ended run is 409.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertRunChangeCommon, fetchTask, jobsOf, registerRunner, Result, runsOf, seedRuns, type ActionsWorld } from '../../helpers/actions.js';

let app: TestApp;
let w: ActionsWorld;
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
});
test.after(async () => {
  await app.close();
});

const cancel = (repo: Repository, run: number, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).POST('/repos/{owner}/{repo}/actions/runs/{run}/cancel', { params: { path: { owner: repo.owner!.login, repo: repo.name, run } } });

test('202: waiting, blocked and running jobs are cancelled, ended ones stay; the runner is told', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'running', jobs: ['success', 'waiting', 'blocked', 'waiting'] }]);
  const runner = await registerRunner(app, ['seed-label']);
  const task = (await fetchTask(runner))!;
  assert.ok(task);
  const res = await cancel(w.pub, s!.run.id);
  assert.is(res.response.status, 202);
  assertSpec('cancelWorkflowRun', res);
  assert.equal((await jobsOf(app, s!.run.id)).map((j) => j.status), ['success', 'cancelled', 'cancelled', 'cancelled']);
  const [run] = (await runsOf(app, w.pub.id, 1)).filter((r) => r.id === s!.run.id);
  assert.is(run!.status, 'cancelled');
  const told = await runner.client.updateTask({ state: { id: task.id, result: Result.UNSPECIFIED } });
  assert.is(told.state!.result, Result.CANCELLED);
  assert.is(await fetchTask(runner), undefined, 'nothing left to take');
});

test('409: an ended run', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }]);
  const res = await cancel(w.pub, s!.run.id);
  assert.is(res.response.status, 409);
  assertSpec('cancelWorkflowRun', res);
});

test('404 for unknown runs and another repository\'s; 401, 403, 404 by role', async () => {
  await assertRunChangeCommon(app, w, 'cancelWorkflowRun', 'running', (repo, run, auth) => cancel(repo, run, auth));
});

test.run();
