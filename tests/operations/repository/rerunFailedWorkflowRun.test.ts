// rerunFailedWorkflowRun: a new attempt of the failed and cancelled jobs of an ended run and of the jobs that need them.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { actionRunJobs } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertRunChangeCommon, jobsOf, seedRuns, type ActionsWorld } from '../../helpers/actions.js';

let app: TestApp;
let w: ActionsWorld;
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
});
test.after(async () => {
  await app.close();
});

const rerun = (repo: Repository, run: number, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).POST('/repos/{owner}/{repo}/actions/runs/{run}/rerun-failed-jobs', { params: { path: { owner: repo.owner!.login, repo: repo.name, run } } });

test('201 with an empty body: failed and cancelled jobs wait again, their dependents are blocked, successes stay', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'failure', jobs: ['success', 'failure', 'cancelled', 'skipped'] }]);
  await app.services.deps.db.update(actionRunJobs).set({ needs: ['job1'] }).where(eq(actionRunJobs.id, s!.jobs[3]!.id));
  const res = await rerun(w.pub, s!.run.id);
  assert.is(res.response.status, 201);
  assertSpec('rerunFailedWorkflowRun', res);
  assert.equal((await jobsOf(app, s!.run.id)).map((j) => j.status), ['success', 'waiting', 'waiting', 'blocked']);
});

test('400: no job failed; 409: the run has not ended', async () => {
  const [ok, going] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }, { status: 'running' }]);
  const none = await rerun(w.pub, ok!.run.id);
  assert.is(none.response.status, 400);
  assertSpec('rerunFailedWorkflowRun', none);
  const busy = await rerun(w.pub, going!.run.id);
  assert.is(busy.response.status, 409);
  assertSpec('rerunFailedWorkflowRun', busy);
});

test('404 for unknown runs and another repository\'s; 401, 403, 404 by role', async () => {
  await assertRunChangeCommon(app, w, 'rerunFailedWorkflowRun', 'failure', (repo, run, auth) => rerun(repo, run, auth));
});

test.run();
