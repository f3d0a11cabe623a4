// rerunWorkflowJob: a new attempt of one job of an ended run and of the jobs that need it; the others keep their results.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { actionRunJobs, actionRuns } from '../../../src/db/schema/index.js';
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

const rerun = (repo: Repository, run: number, job: number, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).POST('/repos/{owner}/{repo}/actions/runs/{run}/jobs/{job_id}/rerun', { params: { path: { owner: repo.owner!.login, repo: repo.name, run, job_id: job } } });

test('201: the job waits again, the job that needs it is blocked, an unrelated one keeps its result; the run is attempt 2', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'failure', jobs: ['failure', 'skipped', 'success'] }]);
  await app.services.deps.db.update(actionRunJobs).set({ needs: ['job0'] }).where(eq(actionRunJobs.id, s!.jobs[1]!.id));
  const res = await rerun(w.pub, s!.run.id, s!.jobs[0]!.id);
  assert.is(res.response.status, 201);
  assertSpec('rerunWorkflowJob', res);
  assert.is(res.data!.id, s!.jobs[0]!.id);
  assert.is(res.data!.status, 'queued');
  assert.equal((await jobsOf(app, s!.run.id)).map((j) => j.status), ['waiting', 'blocked', 'success']);
  const [run] = await app.services.deps.db.select().from(actionRuns).where(eq(actionRuns.id, s!.run.id));
  assert.equal([run!.attempt, run!.status], [2, 'waiting']);
});

test('a job whose needs kept their results waits for a runner at once', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'failure', jobs: ['success', 'failure'] }]);
  await app.services.deps.db.update(actionRunJobs).set({ needs: ['job0'] }).where(eq(actionRunJobs.id, s!.jobs[1]!.id));
  assert.is((await rerun(w.pub, s!.run.id, s!.jobs[1]!.id)).response.status, 201);
  assert.equal((await jobsOf(app, s!.run.id)).map((j) => j.status), ['success', 'waiting']);
});

test('404: a job of another run; 409: a run that has not ended', async () => {
  const [a, b, going] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success' }, { status: 'success' }, { status: 'running' }]);
  const other = await rerun(w.pub, a!.run.id, b!.jobs[0]!.id);
  assert.is(other.response.status, 404);
  assertSpec('rerunWorkflowJob', other);
  const busy = await rerun(w.pub, going!.run.id, going!.jobs[0]!.id);
  assert.is(busy.response.status, 409);
  assertSpec('rerunWorkflowJob', busy);
});

test('404 for unknown runs and another repository\'s; 401, 403, 404 by role', async () => {
  await assertRunChangeCommon(app, w, 'rerunWorkflowJob', 'failure', async (repo, run, auth) => {
    const jobs = await jobsOf(app, run);
    return rerun(repo, run, jobs[0]?.id ?? 1, auth);
  });
});

test.run();
