// approveWorkflowRun: a run of a fork's pull request that waits for approval starts once a writer approves
// it (its jobs wait for a runner); a run that waits for none is 409; the roles of every change to a run.
// The whole fork flow (a push to a fork's pull request, no secrets, the author's later runs) is in
// tests/integration/actionTaskSecrets.test.ts.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { actionRuns } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertRunChangeCommon, fetchTask, jobsOf, registerRunner, seedRuns, type ActionsWorld } from '../../helpers/actions.js';

let app: TestApp;
let w: ActionsWorld;
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
});
test.after(async () => {
  await app.close();
});

const approve = (repo: Repository, run: number, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).POST('/repos/{owner}/{repo}/actions/runs/{run}/approve', { params: { path: { owner: repo.owner!.login, repo: repo.name, run } } });

test('204: the run\'s blocked jobs wait for a runner, which takes one; the approver is recorded', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'blocked', jobs: ['blocked', 'blocked'], needApproval: true }]);
  const runner = await registerRunner(app, ['seed-label']);
  assert.is(await fetchTask(runner), undefined, 'nothing to take before the approval');
  const res = await approve(w.pub, s!.run.id);
  assert.is(res.response.status, 204);
  assertSpec('approveWorkflowRun', res);
  assert.equal((await jobsOf(app, s!.run.id)).map((j) => j.status), ['waiting', 'waiting']);
  const [row] = await app.services.deps.db.select().from(actionRuns).where(eq(actionRuns.id, s!.run.id));
  assert.equal([row!.needApproval, row!.approvedBy], [false, w.owner.id]);
  assert.ok(await fetchTask(runner), 'a runner takes a job once approved');
});

test('409: a run that waits for no approval (one approved already, or any other run)', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'blocked', jobs: ['blocked'], needApproval: true }]);
  assert.is((await approve(w.pub, s!.run.id)).response.status, 204);
  for (const run of [s!.run.id, (await seedRuns(app, w.pub, w.owner.id, [{ status: 'waiting' }]))[0]!.run.id]) {
    const res = await approve(w.pub, run);
    assert.is(res.response.status, 409);
    assertSpec('approveWorkflowRun', res);
  }
});

test('404 for unknown runs and another repository\'s; 401, 403, 404 by role', async () => {
  await assertRunChangeCommon(app, w, 'approveWorkflowRun', 'blocked', (repo, run, auth) => approve(repo, run, auth));
});

test.run();
