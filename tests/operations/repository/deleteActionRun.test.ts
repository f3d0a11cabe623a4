// deleteActionRun: an ended run goes with its jobs and logs; a run still going is 400.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
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

const del = (repo: Repository, run: number, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).DELETE('/repos/{owner}/{repo}/actions/runs/{run}', { params: { path: { owner: repo.owner!.login, repo: repo.name, run } } });

test('204: an ended run and its jobs are gone', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'failure', jobs: ['success', 'failure'] }]);
  const res = await del(w.pub, s!.run.id);
  assert.is(res.response.status, 204);
  assertSpec('deleteActionRun', res);
  assert.equal(await jobsOf(app, s!.run.id), []);
  assert.is((await app.client(w.owner.basic).GET('/repos/{owner}/{repo}/actions/runs/{run}', { params: { path: { owner: w.owner.username, repo: w.pub.name, run: s!.run.id } } })).response.status, 404);
});

test('400: a run that has not ended', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'running' }]);
  const res = await del(w.pub, s!.run.id);
  assert.is(res.response.status, 400);
  assertSpec('deleteActionRun', res);
});

test('404 for unknown runs and another repository\'s; 401, 403, 404 by role', async () => {
  await assertRunChangeCommon(app, w, 'deleteActionRun', 'success', (repo, run, auth) => del(repo, run, auth));
});

test.run();
