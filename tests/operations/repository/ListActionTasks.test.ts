// ListActionTasks: the attempts of a repository's jobs on runners, newest first; the read roles.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { actionRunners, actionTasks } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { actionsWorld, assertActionsReadRoles, seedRuns, type ActionsWorld } from '../../helpers/actions.js';

let app: TestApp;
let w: ActionsWorld;
let taskIds: number[];
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
  const { db } = app.services.deps;
  const [runner] = await db.insert(actionRunners).values({ uuid: 'u-tasks', name: 'r', tokenHash: 'x' }).returning();
  const [a] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'success', jobs: ['success', 'failure'] }]);
  const [p] = await seedRuns(app, w.priv, w.owner.id, [{ status: 'success' }]);
  const rows = await db.insert(actionTasks).values([...a!.jobs, ...p!.jobs].map((j) => ({ jobId: j.id, runnerId: runner!.id, attempt: 1, status: j.status, tokenHash: `t${j.id}`, logFile: '' }))).returning();
  taskIds = rows.filter((t) => a!.jobs.some((j) => j.id === t.jobId)).map((t) => t.id);
});
test.after(async () => {
  await app.close();
});

const list = (repo: Repository, query: Record<string, unknown> = {}, auth: string | null = w.owner.basic) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/actions/tasks', { params: { path: { owner: repo.owner!.login, repo: repo.name }, query: query as never } });

test('200: the repository\'s tasks, newest first, with their job and run; pages', async () => {
  const res = await list(w.pub);
  assert.is(res.response.status, 200);
  assertSpec('ListActionTasks', res);
  assert.equal(res.data!.workflow_runs.map((t) => t.id), [...taskIds].reverse());
  assert.is(res.data!.total_count, 2);
  const first = res.data!.workflow_runs[1]!;
  assert.equal([first.name, first.status, first.workflow_id, first.head_branch, first.event], ['job 0', 'success', 'seed.yml', 'main', 'push']);
  assert.is((await list(w.pub, { limit: 1 })).data!.workflow_runs.length, 1);
});

test('roles: readers of the Actions unit', async () => {
  await assertActionsReadRoles(app, w, 'ListActionTasks', (repo, auth) => list(repo, {}, auth));
});

test.run();
