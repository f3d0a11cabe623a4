// getWorkflowRuns: a repository's runs, newest first, with the admin list's filters, for every role.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertActionsReadRoles, seedRuns, type ActionsWorld, type SeededRun } from '../../helpers/actions.js';

let app: TestApp;
let w: ActionsWorld;
let seeded: SeededRun[];
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
  seeded = await seedRuns(app, w.pub, w.owner.id, [
    { status: 'success' }, { status: 'failure', ref: 'refs/heads/dev' }, { status: 'running', event: 'workflow_dispatch' }, { status: 'waiting' },
  ]);
  await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
});
test.after(async () => {
  await app.close();
});

type Query = { status?: string[]; branch?: string; event?: string; actor?: string; head_sha?: string; page?: number; limit?: number };
const list = (repo: Repository, query: Query = {}, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/actions/runs', { params: { path: { owner: repo.owner!.login, repo: repo.name }, query: query as never } });

test('200: only this repository\'s runs, newest first', async () => {
  const res = await list(w.pub);
  assert.is(res.response.status, 200);
  assertSpec('getWorkflowRuns', res);
  assert.equal(res.data!.workflow_runs.map((r) => r.id), seeded.map((s) => s.run.id).reverse());
  assert.is(res.data!.total_count, 4);
  assert.equal(res.data!.workflow_runs.map((r) => r.run_number), [4, 3, 2, 1]);
});

test('200: filters', async () => {
  const ids = async (q: Query) => (await list(w.pub, q)).data!.workflow_runs.map((r) => r.id);
  assert.equal(await ids({ status: ['completed'] }), [seeded[1]!.run.id, seeded[0]!.run.id]);
  assert.equal(await ids({ status: ['queued', 'in_progress'] }), [seeded[3]!.run.id, seeded[2]!.run.id]);
  assert.equal(await ids({ branch: 'dev' }), [seeded[1]!.run.id]);
  assert.equal(await ids({ event: 'workflow_dispatch' }), [seeded[2]!.run.id]);
  assert.equal(await ids({ actor: w.outsider.username }), []);
  assert.equal(await ids({ head_sha: seeded[0]!.run.commitSha }), [seeded[0]!.run.id]);
  const p = await list(w.pub, { limit: 1, page: 2 });
  assert.equal(p.data!.workflow_runs.map((r) => r.id), [seeded[2]!.run.id]);
  assert.is(p.response.headers.get('x-total-count'), '4');
});

test('422: an unknown status or actor', async () => {
  for (const q of [{ status: ['nope'] }, { actor: 'no-such-user' }]) {
    const res = await list(w.pub, q);
    assert.is(res.response.status, 422, JSON.stringify(q));
    assertSpec('getWorkflowRuns', res);
  }
});

test('roles: anonymous on public, 404 to outsiders on private, collaborators read', async () => {
  await assertActionsReadRoles(app, w, 'getWorkflowRuns', (repo, auth) => list(repo, {}, auth));
});

test('404: an unknown repository; Actions switched off', async () => {
  const gone = await app.client(w.owner.basic).GET('/repos/{owner}/{repo}/actions/runs', { params: { path: { owner: w.owner.username, repo: 'no-such-repo' } } });
  assert.is(gone.response.status, 404);
  assertSpec('getWorkflowRuns', gone);
  const repo = (await app.client(w.owner.basic).POST('/user/repos', { body: { name: 'no-actions' } })).data!;
  await app.client(w.owner.basic).PATCH('/repos/{owner}/{repo}', { params: { path: { owner: w.owner.username, repo: repo.name } }, body: { has_actions: false } });
  assert.is((await list(repo)).response.status, 404);
});

test.run();
