// ActionsGetWorkflow: one workflow file of the default branch, active or disabled; 404 for another name.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertActionsReadRoles, pushFiles, type ActionsWorld } from '../../helpers/actions.js';

let app: TestApp;
let w: ActionsWorld;
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
  for (const repo of [w.pub, w.priv]) {
    await pushFiles(app, w.owner, w.owner.username, repo.name, { '.gitea/workflows/build.yml': 'name: Build\non: workflow_dispatch\njobs:\n  a:\n    runs-on: none\n    steps: [{run: x}]\n' });
  }
});
test.after(async () => {
  await app.close();
});

const get = (repo: Repository, id: string, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/actions/workflows/{workflow_id}', { params: { path: { owner: repo.owner!.login, repo: repo.name, workflow_id: id } } });

test('200: the workflow as listed; disabled_manually after a disable', async () => {
  const res = await get(w.pub, 'build.yml');
  assert.is(res.response.status, 200);
  assertSpec('ActionsGetWorkflow', res);
  assert.equal([res.data!.id, res.data!.name, res.data!.path, res.data!.state], ['build.yml', 'Build', '.gitea/workflows/build.yml', 'active']);
  const put = await app.client(w.owner.basic).PUT('/repos/{owner}/{repo}/actions/workflows/{workflow_id}/disable', { params: { path: { owner: w.owner.username, repo: w.pub.name, workflow_id: 'build.yml' } } });
  assert.is(put.response.status, 204);
  assert.is((await get(w.pub, 'build.yml')).data!.state, 'disabled_manually');
});

test('404: a file the default branch does not have', async () => {
  for (const id of ['nope.yml', 'Build', 'build.yaml']) {
    const res = await get(w.pub, id);
    assert.is(res.response.status, 404, id);
    assertSpec('ActionsGetWorkflow', res);
  }
});

test('roles: readers of the Actions unit', async () => {
  await assertActionsReadRoles(app, w, 'ActionsGetWorkflow', (repo, auth) => get(repo, 'build.yml', auth));
});

test.run();
