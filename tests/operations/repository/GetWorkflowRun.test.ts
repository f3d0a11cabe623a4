// GetWorkflowRun: one run of the repository, for every role.
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
  pubRun = (await seedRuns(app, w.pub, w.owner.id, [{ status: 'success', ref: 'refs/tags/v1' }]))[0]!;
  privRun = (await seedRuns(app, w.priv, w.owner.id, [{ status: 'running' }]))[0]!;
});
test.after(async () => {
  await app.close();
});

const get = (repo: Repository, run: number | string, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/actions/runs/{run}', { params: { path: { owner: repo.owner!.login, repo: repo.name, run: run as number } } });

test('200: the run, with its actor and repository', async () => {
  const res = await get(w.pub, pubRun.run.id);
  assert.is(res.response.status, 200);
  assertSpec('GetWorkflowRun', res);
  assert.is(res.data!.id, pubRun.run.id);
  assert.is(res.data!.status, 'completed');
  assert.is(res.data!.conclusion, 'success');
  assert.is(res.data!.head_branch, undefined, 'a tag is no branch');
  assert.is(res.data!.path, 'seed.yml@refs/tags/v1');
  assert.is(res.data!.actor!.login, w.owner.username);
  assert.is(res.data!.repository!.id, w.pub.id);
  assert.is(res.data!.html_url, `${app.config.rootUrl}${w.owner.username}/${w.pub.name}/actions/runs/${pubRun.run.index}`);
});

test('roles', async () => {
  await assertActionsReadRoles(app, w, 'GetWorkflowRun', (repo, auth) => get(repo, repo.id === w.pub.id ? pubRun.run.id : privRun.run.id, auth));
});

test('404: an unknown run, a run of another repository; 422: not a number', async () => {
  for (const [repo, id] of [[w.pub, 999999], [w.pub, privRun.run.id]] as const) {
    const res = await get(repo, id);
    assert.is(res.response.status, 404, String(id));
    assertSpec('GetWorkflowRun', res);
  }
  const bad = await get(w.pub, 'abc');
  assert.is(bad.response.status, 422);
  assertSpec('GetWorkflowRun', bad);
});

test.run();
