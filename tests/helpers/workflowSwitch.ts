// The shared cases of `PUT …/workflows/{id}/enable` and `…/disable`: a disabled workflow makes no runs
// (push, dispatch: 403), enabling it makes runs again; 404 for an unknown workflow; the write roles.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { actionRuns } from '../../src/db/schema/index.js';
import { eq } from 'drizzle-orm';
import { actionsWorld, assertActionsWriteRoles, pushFiles, runsOf, type ActionsWorld } from './actions.js';
import { startApp, type TestApp } from './harness.js';
import type { Repository } from './repos.js';
import { assertSpec } from './spec-check.js';

const ci = 'on: [push, workflow_dispatch]\njobs:\n  a:\n    runs-on: none\n    steps: [{run: x}]\n';

export function workflowSwitchTests(operationId: 'ActionsEnableWorkflow' | 'ActionsDisableWorkflow'): void {
  let app: TestApp;
  let w: ActionsWorld;
  test.before(async () => {
    app = await startApp({}, { actions: true });
    w = await actionsWorld(app);
    for (const repo of [w.pub, w.priv]) await pushFiles(app, w.owner, w.owner.username, repo.name, { '.gitea/workflows/ci.yml': ci, '.gitea/workflows/other.yml': ci });
  });
  test.after(async () => {
    await app.close();
  });
  const put = (repo: Repository, verb: 'enable' | 'disable', id: string, auth: string | null = w.owner.basic) =>
    app.client(auth ?? undefined).PUT(`/repos/{owner}/{repo}/actions/workflows/{workflow_id}/${verb}` as '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/enable', {
      params: { path: { owner: repo.owner!.login, repo: repo.name, workflow_id: id } },
    });
  const mine = operationId === 'ActionsEnableWorkflow' ? 'enable' : 'disable';
  const runsNow = async (repo: Repository) => (await app.services.deps.db.select().from(actionRuns).where(eq(actionRuns.repoId, repo.id))).length;

  test('204: a disabled workflow makes no runs (push, dispatch 403); enabled again it does; the other workflow runs throughout', async () => {
    const before = (await runsOf(app, w.pub.id, 2)).length;
    const off = await put(w.pub, 'disable', 'ci.yml');
    assert.is(off.response.status, 204);
    if (mine === 'disable') assertSpec(operationId, off);
    assert.is((await put(w.pub, 'disable', 'ci.yml')).response.status, 204, 'twice is fine');
    await pushFiles(app, w.owner, w.owner.username, w.pub.name, { 'a.txt': '1' });
    const after = await runsOf(app, w.pub.id, before + 1);
    assert.equal(after.slice(before).map((r) => r.workflowId), ['other.yml']);
    const dispatch = await app.client(w.owner.basic).POST('/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', {
      params: { path: { owner: w.owner.username, repo: w.pub.name, workflow_id: 'ci.yml' } }, body: { ref: 'main' },
    });
    assert.is(dispatch.response.status, 403);
    const on = await put(w.pub, 'enable', 'ci.yml');
    assert.is(on.response.status, 204);
    if (mine === 'enable') assertSpec(operationId, on);
    const count = await runsNow(w.pub);
    await pushFiles(app, w.owner, w.owner.username, w.pub.name, { 'a.txt': '2' });
    const again = await runsOf(app, w.pub.id, count + 2);
    assert.equal(again.slice(count).map((r) => r.workflowId).sort(), ['ci.yml', 'other.yml']);
  });

  test('404: a workflow file the default branch does not have', async () => {
    const res = await put(w.pub, mine, 'missing.yml');
    assert.is(res.response.status, 404);
    assertSpec(operationId, res);
  });

  test('roles: writers of the Actions unit', async () => {
    await assertActionsWriteRoles(app, w, operationId, (repo, auth) => put(repo, mine, 'other.yml', auth));
    assert.is((await put(w.priv, mine, 'other.yml', w.owner.basic)).response.status, 204);
  });

  test.run();
}
