// listWorkflowJobs: every job of a repository's runs, with the status filter and order; the read roles.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertActionsReadRoles, seedRuns, type ActionsWorld } from '../../helpers/actions.js';

let app: TestApp;
let w: ActionsWorld;
let ids: number[];
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
  const [a, b] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'failure', jobs: ['success', 'failure'] }, { status: 'running', jobs: ['running'] }]);
  await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  ids = [...a!.jobs, ...b!.jobs].map((j) => j.id);
});
test.after(async () => {
  await app.close();
});

const list = (repo: Repository, query: Record<string, unknown> = {}, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/actions/jobs', { params: { path: { owner: repo.owner!.login, repo: repo.name }, query: query as never } });

test('200: the repository\'s jobs by id; order=desc; status; pages', async () => {
  const res = await list(w.pub);
  assert.is(res.response.status, 200);
  assertSpec('listWorkflowJobs', res);
  assert.equal(res.data!.jobs.map((j) => j.id), ids);
  assert.is(res.data!.total_count, 3);
  assert.equal((await list(w.pub, { order: 'desc' })).data!.jobs.map((j) => j.id), [...ids].reverse());
  assert.equal((await list(w.pub, { status: ['in_progress'] })).data!.jobs.map((j) => j.id), [ids[2]]);
  assert.equal((await list(w.pub, { limit: 1, page: 2 })).data!.jobs.map((j) => j.id), [ids[1]]);
  const bad = await list(w.pub, { status: ['bogus'] });
  assert.is(bad.response.status, 422);
  assertSpec('listWorkflowJobs', bad);
});

test('roles: readers of the Actions unit', async () => {
  await assertActionsReadRoles(app, w, 'listWorkflowJobs', (repo, auth) => list(repo, {}, auth));
});

test.run();
