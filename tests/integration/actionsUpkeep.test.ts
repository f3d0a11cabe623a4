// The Actions cron tasks: each makes its condition (a silent runner, an endless task, a job nobody takes,
// an old run, an offline runner) and sees it mended through POST /admin/cron/{task}.
import { eq, inArray } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { actionRunJobs, actionRunners, actionRuns, actionSchedules, actionTasks, actionTriggers } from '../../src/db/schema/index.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, userRepo, type Actor, type Repository } from '../helpers/repos.js';
import { fetchTask, finishTask, jobsOf, pushFiles, registerRunner, Result, seedRuns } from '../helpers/actions.js';
import { eventually } from '../helpers/hooks.js';
import { hasBlob } from '../helpers/blobs.js';

let app: TestApp;
let owner: Actor;
let repo: Repository;
test.before(async () => {
  // The trigger worker turns pushes into runs and schedules.
  app = await startApp({ ACTIONS_POLL_INTERVAL_MS: '50' }, { actions: true });
  owner = await actor(app);
  repo = await userRepo(app, owner, { auto_init: true });
});
test.after(async () => {
  await app.close();
});

const runTask = async (task: string) => {
  const res = await app.client(app.admin.basic).POST('/admin/cron/{task}', { params: { path: { task } } });
  assert.is(res.response.status, 204, task);
  const list = await app.client(app.admin.basic).GET('/admin/cron', { params: { query: { limit: 50 } } });
  return list.data!.find((t) => t.name === task)!;
};
const ago = (ms: number) => new Date(Date.now() - ms);
const runOf = async (id: number) => (await app.services.deps.db.select().from(actionRuns).where(eq(actionRuns.id, id)))[0]!;

test('stop_zombie_tasks: a running task not heard from for 10 minutes fails, its run fails, the runner is told; a live one stays', async () => {
  const [s] = await seedRuns(app, repo, owner.id, [{ status: 'waiting', jobs: ['waiting', 'waiting'] }]);
  const runner = await registerRunner(app, ['seed-label']);
  const silent = (await fetchTask(runner))!;
  const live = (await fetchTask(runner))!;
  await app.services.deps.db.update(actionTasks).set({ updatedAt: ago(11 * 60_000) }).where(eq(actionTasks.id, Number(silent.id)));
  await runTask('stop_zombie_tasks');
  const jobs = await jobsOf(app, s!.run.id);
  assert.equal(jobs.map((j) => j.status), ['failure', 'running']);
  const told = await runner.client.updateTask({ state: { id: silent.id, result: Result.UNSPECIFIED } });
  assert.is(told.state!.result, Result.FAILURE);
  await finishTask(runner, live, Result.SUCCESS);
  assert.is((await runOf(s!.run.id)).status, 'failure');
});

test('stop_endless_tasks: a task running for three hours fails', async () => {
  const [s] = await seedRuns(app, repo, owner.id, [{ status: 'waiting', jobs: ['waiting'] }]);
  const runner = await registerRunner(app, ['seed-label']);
  const task = (await fetchTask(runner))!;
  await app.services.deps.db.update(actionTasks).set({ started: ago(181 * 60_000) }).where(eq(actionTasks.id, Number(task.id)));
  const before = await runTask('stop_endless_tasks');
  assert.ok(before.exec_times >= 1);
  assert.equal((await jobsOf(app, s!.run.id)).map((j) => j.status), ['failure']);
});

test('cancel_abandoned_jobs: jobs waiting a day are cancelled with the blocked ones behind them', async () => {
  const [old, fresh] = await seedRuns(app, repo, owner.id, [{ status: 'waiting', jobs: ['waiting', 'blocked'] }, { status: 'waiting', jobs: ['waiting'] }]);
  await app.services.deps.db.update(actionRunJobs).set({ updatedAt: ago(25 * 3600_000) }).where(eq(actionRunJobs.runId, old!.run.id));
  await runTask('cancel_abandoned_jobs');
  assert.equal((await jobsOf(app, old!.run.id)).map((j) => j.status), ['cancelled', 'cancelled']);
  assert.is((await runOf(old!.run.id)).status, 'cancelled');
  assert.equal((await jobsOf(app, fresh!.run.id)).map((j) => j.status), ['waiting']);
  // Clear the queue: the next tests' runners must take their own jobs.
  await app.services.deps.db.update(actionRunJobs).set({ status: 'cancelled' }).where(inArray(actionRunJobs.status, ['waiting', 'blocked']));
});

test('cleanup_actions: ended runs past the retention go with their logs; newer and unfinished ones stay', async () => {
  const [s, keep, going] = await seedRuns(app, repo, owner.id, [{ status: 'waiting', jobs: ['waiting'] }, { status: 'success' }, { status: 'running' }]);
  const runner = await registerRunner(app, ['seed-label']);
  const task = (await fetchTask(runner))!;
  await finishTask(runner, task, Result.SUCCESS, ['a line']);
  const [row] = await app.services.deps.db.select().from(actionTasks).where(eq(actionTasks.id, Number(task.id)));
  assert.ok(await hasBlob(app, 'actions_log', row!.logFile));
  await app.services.deps.db.update(actionRuns).set({ stopped: ago(366 * 86_400_000) }).where(inArray(actionRuns.id, [s!.run.id, going!.run.id]));
  await runTask('cleanup_actions');
  const left = (await app.services.deps.db.select({ id: actionRuns.id }).from(actionRuns).where(inArray(actionRuns.id, [s!.run.id, keep!.run.id, going!.run.id]))).map((r) => r.id);
  assert.equal(left.sort(), [keep!.run.id, going!.run.id].sort());
  assert.not.ok(await hasBlob(app, 'actions_log', row!.logFile), 'the log file went with its run');
});

test('start_schedule_tasks: a default-branch push records on: schedule; a due schedule makes a run at that commit once, then waits for its next moment', async () => {
  const sched = await userRepo(app, owner, { auto_init: true });
  const wf = 'name: Nightly\non:\n  schedule:\n    - cron: "*/5 * * * *"\n    - cron: "not a cron"\n  push:\n    branches: [none]\njobs:\n  n:\n    runs-on: none\n    steps: [{run: x}]\n';
  const sha = await pushFiles(app, owner, owner.username, sched.name, { '.gitea/workflows/nightly.yml': wf });
  const rows = await eventually(async () => {
    const r = await app.services.deps.db.select().from(actionSchedules).where(eq(actionSchedules.repoId, sched.id));
    return r.length ? r : undefined;
  }, 'the schedule');
  assert.equal(rows.map((r) => [r.workflowId, r.cron, r.ref, r.commitSha]), [['nightly.yml', '*/5 * * * *', 'refs/heads/main', sha]], 'an invalid cron is left out');
  assert.ok(rows[0]!.next.getTime() > Date.now() && rows[0]!.next.getUTCMinutes() % 5 === 0);
  await app.services.deps.db.update(actionSchedules).set({ next: ago(1000) }).where(eq(actionSchedules.id, rows[0]!.id));
  await runTask('start_schedule_tasks');
  const [run] = await app.services.deps.db.select().from(actionRuns).where(eq(actionRuns.repoId, sched.id));
  assert.equal([run!.event, run!.ref, run!.commitSha, run!.workflowName, run!.triggerUserId], ['schedule', 'refs/heads/main', sha, 'Nightly', owner.id]);
  assert.equal(run!.eventPayload, { schedule: '*/5 * * * *' });
  assert.equal((await jobsOf(app, run!.id)).map((j) => j.status), ['waiting']);
  const [moved] = await app.services.deps.db.select().from(actionSchedules).where(eq(actionSchedules.id, rows[0]!.id));
  assert.ok(moved!.next.getTime() > Date.now());
  await runTask('start_schedule_tasks');
  assert.is((await app.services.deps.db.select().from(actionRuns).where(eq(actionRuns.repoId, sched.id))).length, 1, 'not due again');
  // A push elsewhere keeps the schedule; a default-branch push without it removes it.
  await pushFiles(app, owner, owner.username, sched.name, { 'x.txt': 'x' }, { branch: 'topic' });
  await eventually(async () => (await app.services.deps.db.select().from(actionTriggers)).length === 0, 'the topic push processed');
  assert.is((await app.services.deps.db.select().from(actionSchedules).where(eq(actionSchedules.repoId, sched.id))).length, 1);
  await pushFiles(app, owner, owner.username, sched.name, { '.gitea/workflows/nightly.yml': 'on: push\njobs:\n  n:\n    runs-on: none\n    steps: [{run: x}]\n' });
  await eventually(async () => (await app.services.deps.db.select().from(actionSchedules).where(eq(actionSchedules.repoId, sched.id))).length === 0, 'the schedule removed');
});

test('cleanup_offline_runners: runners offline for a day go, unless running a task', async () => {
  const idle = await registerRunner(app, ['x']);
  const online = await registerRunner(app, ['x']);
  await app.services.deps.db.update(actionRunners).set({ lastOnline: ago(25 * 3600_000) }).where(eq(actionRunners.id, idle.id));
  await runTask('cleanup_offline_runners');
  const ids = (await app.services.deps.db.select({ id: actionRunners.id }).from(actionRunners).where(inArray(actionRunners.id, [idle.id, online.id]))).map((r) => r.id);
  assert.equal(ids, [online.id]);
});

test.run();
