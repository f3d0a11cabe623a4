// rerunWorkflowRun: a new attempt of an ended run's jobs; a run still going or without jobs is 409.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertRunChangeCommon, jobsOf, seedRuns, type ActionsWorld } from '../../helpers/actions.js';
import { actionRunJobs } from '../../../src/db/schema/index.js';
import { eq } from 'drizzle-orm';

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
  app.client(auth ?? undefined).POST('/repos/{owner}/{repo}/actions/runs/{run}/rerun', { params: { path: { owner: repo.owner!.login, repo: repo.name, run } } });

test('200: the run starts again (attempt 2); jobs without needs wait for a runner, the others for their needs', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'failure', jobs: ['success', 'failure'] }]);
  await app.services.deps.db.update(actionRunJobs).set({ needs: ['job0'] }).where(eq(actionRunJobs.id, s!.jobs[1]!.id));
  const res = await rerun(w.pub, s!.run.id);
  assert.is(res.response.status, 200);
  assertSpec('rerunWorkflowRun', res);
  assert.is(res.data!.run_attempt, 2);
  assert.is(res.data!.status, 'queued');
  assert.is(res.data!.completed_at, '0001-01-01T00:00:00Z');
  assert.equal((await jobsOf(app, s!.run.id)).map((j) => [j.status, j.taskId, j.stopped]), [['waiting', null, null], ['blocked', null, null]]);
});

test('409: a run that has not ended; a run without jobs', async () => {
  const [going, empty] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'running' }, { status: 'failure', jobs: [] }]);
  for (const s of [going!, empty!]) {
    const res = await rerun(w.pub, s.run.id);
    assert.is(res.response.status, 409);
    assertSpec('rerunWorkflowRun', res);
  }
});

test('404 for unknown runs and another repository\'s; 401, 403, 404 by role', async () => {
  await assertRunChangeCommon(app, w, 'rerunWorkflowRun', 'success', (repo, run, auth) => rerun(repo, run, auth));
});

test.run();
