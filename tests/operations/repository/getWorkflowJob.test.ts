// getWorkflowJob: one job of the repository, for every role.
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
  pubRun = (await seedRuns(app, w.pub, w.owner.id, [{ status: 'failure', jobs: ['failure'] }]))[0]!;
  privRun = (await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]))[0]!;
});
test.after(async () => {
  await app.close();
});

const get = (repo: Repository, job: number, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/actions/jobs/{job_id}', { params: { path: { owner: repo.owner!.login, repo: repo.name, job_id: job } } });

test('200: the job', async () => {
  const res = await get(w.pub, pubRun.jobs[0]!.id);
  assert.is(res.response.status, 200);
  assertSpec('getWorkflowJob', res);
  assert.equal([res.data!.id, res.data!.run_id, res.data!.status, res.data!.conclusion], [pubRun.jobs[0]!.id, pubRun.run.id, 'completed', 'failure']);
});

test('roles', async () => {
  await assertActionsReadRoles(app, w, 'getWorkflowJob', (repo, auth) => get(repo, repo.id === w.pub.id ? pubRun.jobs[0]!.id : privRun.jobs[0]!.id, auth));
});

test('404: an unknown job, a job of another repository', async () => {
  for (const id of [987654, privRun.jobs[0]!.id]) {
    const res = await get(w.pub, id);
    assert.is(res.response.status, 404);
    assertSpec('getWorkflowJob', res);
  }
});

test.run();
