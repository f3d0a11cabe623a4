// A task's log on its way to the actions_log storage (src/services/actions/taskLogs.ts): kept in the
// database while the runner sends it (each accepted batch once), readable then and afterwards, moved
// gzip'ed into storage when the runner says no more (once, however often it says so), or by the
// stop_zombie_tasks sweep when the task ended without it; a live log an older anvil wrote under
// $DATA_DIR/actions_log stays readable and is moved too. Runs on the local folder; ANVIL_TEST_STORAGE=s3
// runs it on an S3 server (tests/helpers/s3.ts), where nothing lands under $DATA_DIR/actions_log.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { actionRuns, actionTaskLogChunks, actionTasks } from '../../src/db/schema/index.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actionsWorld, fetchTask, finishTask, registerRunner, Result, seedRuns, type ActionsWorld } from '../helpers/actions.js';
import { hasBlob, storedLog } from '../helpers/blobs.js';

let app: TestApp;
let w: ActionsWorld;
test.before(async () => {
  app = await startApp();
  w = await actionsWorld(app);
});
test.after(async () => {
  await app.close();
});

const logText = async (job: number) => {
  const res = await fetch(`${app.url}/api/v1/repos/${w.owner.username}/${w.pub.name}/actions/jobs/${job}/logs`, { headers: { Authorization: w.owner.basic } });
  assert.is(res.status, 200);
  return (await res.text()).trimEnd().split('\n').filter(Boolean).map((l) => l.replace(/^\S+ /, ''));
};
const taskRow = async (id: bigint) => (await app.services.deps.db.select().from(actionTasks).where(eq(actionTasks.id, Number(id))))[0]!;
const chunks = async (id: bigint) => app.services.deps.db.select().from(actionTaskLogChunks).where(eq(actionTaskLogChunks.taskId, Number(id)));
const localLogDir = () => join(app.config.dataDir, 'actions_log');

test('while the task runs the rows are in the database, each once (repeated and overlapping batches); no more moves them to storage once', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'waiting', jobs: ['waiting'] }]);
  const runner = await registerRunner(app, ['seed-label']);
  const task = (await fetchTask(runner))!;
  assert.is(Number((await runner.client.updateLog({ taskId: task.id, index: 0n, rows: [{ content: 'a' }, { content: 'b' }] })).ackIndex), 2);
  // The same batch again (a retry), an overlapping one, and one past a gap.
  assert.is(Number((await runner.client.updateLog({ taskId: task.id, index: 0n, rows: [{ content: 'a' }, { content: 'b' }] })).ackIndex), 2);
  assert.is(Number((await runner.client.updateLog({ taskId: task.id, index: 1n, rows: [{ content: 'b' }, { content: 'c' }] })).ackIndex), 3);
  assert.is(Number((await runner.client.updateLog({ taskId: task.id, index: 9n, rows: [{ content: 'gap' }] })).ackIndex), 3);
  // Several batches at once from as many calls: each row kept once.
  const acks = await Promise.all([3, 3, 3].map((i) => runner.client.updateLog({ taskId: task.id, index: BigInt(i), rows: [{ content: 'd' }, { content: 'e' }] })));
  assert.ok(acks.every((a) => Number(a.ackIndex) === 5));
  assert.equal(await logText(s!.jobs[0]!.id), ['a', 'b', 'c', 'd', 'e'], 'read from the database while it runs');
  const live = await taskRow(task.id);
  assert.is(live.logFile, '');
  assert.not.ok(live.logCompressed);
  assert.is((await chunks(task.id)).reduce((n, c) => n + c.rows, 0), 5);
  assert.not.ok(existsSync(localLogDir()), 'nothing written under DATA_DIR/actions_log while it runs');

  // No more, said twice (a retry) and at once: moved once, whole.
  await Promise.all([1, 2].map(() => runner.client.updateLog({ taskId: task.id, index: 5n, rows: [], noMore: true })));
  await runner.client.updateLog({ taskId: task.id, index: 5n, rows: [], noMore: true });
  const done = await taskRow(task.id);
  assert.ok(done.logCompressed);
  assert.is(done.logFile, `${w.pub.id}/${task.id}.log.gz`);
  assert.is(done.logTransferUntil, null);
  assert.equal((await storedLog(app, done.logFile))!.trimEnd().split('\n').map((l) => l.replace(/^\S+ /, '')), ['a', 'b', 'c', 'd', 'e']);
  assert.is((await chunks(task.id)).length, 0, 'the rows left the database');
  assert.equal(await logText(s!.jobs[0]!.id), ['a', 'b', 'c', 'd', 'e'], 'read from storage afterwards');
  // Rows after no more are not taken.
  assert.is(Number((await runner.client.updateLog({ taskId: task.id, index: 5n, rows: [{ content: 'late' }] })).ackIndex), 5);
  assert.equal(await logText(s!.jobs[0]!.id), ['a', 'b', 'c', 'd', 'e']);
  const local = app.config.storage.actions_log.type === 'local';
  assert.is(existsSync(join(localLogDir(), done.logFile)), local, local ? 'the local folder keeps the old layout' : 'S3: nothing under DATA_DIR');

  // Deleting the (ended) run removes the stored log.
  await app.services.deps.db.update(actionRuns).set({ status: 'success' }).where(eq(actionRuns.id, s!.run.id));
  const del = await app.client(w.owner.basic).DELETE('/repos/{owner}/{repo}/actions/runs/{run}', { params: { path: { owner: w.owner.username, repo: w.pub.name, run: s!.run.id } } });
  assert.is(del.response.status, 204);
  assert.not.ok(await hasBlob(app, 'actions_log', done.logFile));
});

test('stop_zombie_tasks moves the log of a task that ended without no more (its runner went away); a fresh one waits', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'waiting', jobs: ['waiting', 'waiting'] }]);
  const runner = await registerRunner(app, ['seed-label']);
  const gone = (await fetchTask(runner))!;
  const fresh = (await fetchTask(runner))!;
  await runner.client.updateLog({ taskId: gone.id, index: 0n, rows: [{ content: 'before the crash' }] });
  await runner.client.updateLog({ taskId: fresh.id, index: 0n, rows: [{ content: 'still going' }] });
  // The first task's runner stopped answering 11 minutes ago: the sweep fails the task, then (once it
  // has been quiet for the timeout) moves its log.
  const { db } = app.services.deps;
  await db.update(actionTasks).set({ updatedAt: new Date(Date.now() - 11 * 60_000) }).where(eq(actionTasks.id, Number(gone.id)));
  await app.services.cron.run('stop_zombie_tasks');
  await db.update(actionTasks).set({ updatedAt: new Date(Date.now() - 11 * 60_000) }).where(eq(actionTasks.id, Number(gone.id)));
  const out = await app.services.cron.run('stop_zombie_tasks');
  assert.ok(out.ran && out.status === 'ok' && /1 ended task\(s\)' logs moved/.test(out.message), out.ran ? out.message : '');
  const moved = await taskRow(gone.id);
  assert.is(moved.status, 'failure');
  assert.ok(moved.logCompressed);
  assert.match((await storedLog(app, moved.logFile))!, /before the crash\n$/);
  assert.equal(await logText(s!.jobs[0]!.id), ['before the crash']);
  const still = await taskRow(fresh.id);
  assert.not.ok(still.logCompressed);
  assert.equal(await logText(s!.jobs[1]!.id), ['still going']);
  await finishTask(runner, fresh, Result.SUCCESS, ['still going', 'done']);
  assert.equal(await logText(s!.jobs[1]!.id), ['still going', 'done']);
});

test('a live log an older anvil wrote under DATA_DIR/actions_log is read with the rows sent since, and moved with them', async () => {
  const [s] = await seedRuns(app, w.pub, w.owner.id, [{ status: 'waiting', jobs: ['waiting'] }]);
  const runner = await registerRunner(app, ['seed-label']);
  const task = (await fetchTask(runner))!;
  // As the upgrade leaves it: the file and its rows counted, its path made relative by the migration.
  const rel = `${w.pub.id}/${task.id}.log`;
  mkdirSync(join(localLogDir(), String(w.pub.id)), { recursive: true });
  writeFileSync(join(localLogDir(), rel), '2026-01-01T00:00:00.000Z old 1\n2026-01-01T00:00:00.000Z old 2\n');
  await app.services.deps.db.update(actionTasks).set({ logFile: rel, logLength: 2 }).where(eq(actionTasks.id, Number(task.id)));
  await runner.client.updateLog({ taskId: task.id, index: 2n, rows: [{ content: 'new 3' }] });
  assert.equal(await logText(s!.jobs[0]!.id), ['old 1', 'old 2', 'new 3']);
  await runner.client.updateLog({ taskId: task.id, index: 3n, rows: [], noMore: true });
  const done = await taskRow(task.id);
  assert.ok(done.logCompressed);
  assert.is(done.logFile, `${w.pub.id}/${task.id}.log.gz`);
  assert.equal(await logText(s!.jobs[0]!.id), ['old 1', 'old 2', 'new 3']);
  assert.not.ok(existsSync(join(localLogDir(), rel)), 'the old live file is gone');
});

test.run();
