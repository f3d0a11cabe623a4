// adminCronRun: run a task now (synchronously), for every role and status.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, userRepo } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let asAdmin: string;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['write:admin']);
});
test.after(async () => {
  await app.close();
});

const run = (task: string, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).POST('/admin/cron/{task}', { params: { path: { task } } });
const shown = async (name: string) =>
  (await app.client(asAdmin).GET('/admin/cron', { params: { query: { limit: 50 } } })).data!.find((t) => t.name === name)!;

test('204: the task runs before the answer; exec_times goes up by one and prev is this run', async () => {
  const before = await shown('check_repo_stats');
  const asked = Math.floor(Date.now() / 1000) * 1000;
  const t0 = performance.now();
  const res = await run('check_repo_stats');
  const tookMs = performance.now() - t0;
  assert.is(res.response.status, 204);
  assertSpec('adminCronRun', res);
  const after = await shown('check_repo_stats');
  assert.is(after.exec_times, before.exec_times + 1);
  assert.ok(Date.parse(after.prev) >= asked, `${after.prev} ≥ ${new Date(asked).toISOString()}`);
  const record = (await app.services.cron.record('check_repo_stats'))!;
  assert.is(record.lastStatus, 'ok');
  assert.is(record.lastMessage, 'every counter was right');
  // The run's own duration: a whole number of milliseconds within the time the request took.
  const d = record.lastDurationMs;
  assert.ok(Number.isInteger(d) && d! >= 0 && d! <= Math.ceil(tookMs) + 1, `lastDurationMs ${d} within the ${tookMs.toFixed(0)} ms the request took`);
});

test('204: a disabled task runs too; it shows its count and, as in Gitea, the manual run as prev (no next run)', async () => {
  for (const name of ['git_gc_repos', 'reinit_missing_repos', 'delete_missing_repos']) {
    const asked = Math.floor(Date.now() / 1000) * 1000;
    assert.is((await run(name)).response.status, 204, name);
    assert.is((await run(name)).response.status, 204, name);
    const t = await shown(name);
    assert.equal({ ...t, prev: '' }, { name, schedule: '-', next: '0001-01-01T00:00:00Z', prev: '', exec_times: 2 }, name);
    assert.ok(Date.parse(t.prev) >= asked, `${name}: ${t.prev} ≥ ${new Date(asked).toISOString()}`);
  }
  assert.match((await app.services.cron.record('git_gc_repos'))!.lastMessage, /git repositories checked/);
});

test('204: a task with nothing to act on runs and says so', async () => {
  assert.is((await run('update_mirrors')).response.status, 204);
  const r = (await app.services.cron.record('update_mirrors'))!;
  assert.equal([r.execTimes, r.lastStatus, r.lastMessage], [1, 'ok', 'synced 0 mirrors; pushed 0 push mirrors']);
});

test('204: while the task runs elsewhere (its lock is held) the run is skipped and counted as such', async () => {
  const before = await shown('archive_cleanup');
  const release = (await app.services.deps.tryLock!('cron:archive_cleanup'))!;
  assert.ok(release, 'the lock was free');
  try {
    assert.is((await run('archive_cleanup')).response.status, 204);
    assert.is((await shown('archive_cleanup')).exec_times, before.exec_times, 'nothing ran');
    assert.is((await app.services.cron.record('archive_cleanup'))!.skippedTimes, 1);
  } finally {
    await release();
  }
  assert.is((await run('archive_cleanup')).response.status, 204);
  assert.is((await shown('archive_cleanup')).exec_times, before.exec_times + 1, 'free again: it runs');
});

test('204: a task that fails is recorded as failed; the answer is still 204 (the run happened)', async () => {
  const owner = await actor(app);
  const repo = await userRepo(app, owner);
  // The owner's folder is a file: re-creating the missing repository cannot succeed.
  const ownerDir = join(app.config.dataDir, 'repositories', owner.username.toLowerCase());
  rmSync(ownerDir, { recursive: true, force: true });
  writeFileSync(ownerDir, 'not a folder');
  try {
    assert.is((await run('reinit_missing_repos')).response.status, 204);
    const r = (await app.services.cron.record('reinit_missing_repos'))!;
    assert.is(r.lastStatus, 'failed');
    assert.ok(r.lastMessage.length > 0);
  } finally {
    rmSync(ownerDir, { force: true });
    mkdirSync(ownerDir);
  }
  assert.is((await run('reinit_missing_repos')).response.status, 204);
  const r = (await app.services.cron.record('reinit_missing_repos'))!;
  assert.equal([r.lastStatus, r.lastMessage], ['ok', `re-initialized 1 repository: ${repo.full_name}`]);
});

test('404: an unknown task (empty body)', async () => {
  for (const task of ['nope', 'CHECK_REPO_STATS', 'check_repo_stats ']) {
    const res = await fetch(`${app.url}/api/v1/admin/cron/${encodeURIComponent(task)}`, { method: 'POST', headers: { Authorization: asAdmin } });
    assert.is(res.status, 404, task);
    assert.is(await res.text(), '');
  }
});

test('401, 403: anonymous, a plain user, a token without write:admin; nothing runs', async () => {
  const before = (await shown('check_repo_stats')).exec_times;
  const anon = await run('check_repo_stats', null);
  assert.is(anon.response.status, 401);
  assertSpec('adminCronRun', anon);
  const plain = await run('check_repo_stats', await app.token(await app.user(), ['all']));
  assert.is(plain.response.status, 403);
  assertSpec('adminCronRun', plain);
  assert.is((plain.error as { message: string }).message, 'user should be the site admin');
  const readOnly = await run('check_repo_stats', await app.token(app.admin, ['read:admin']));
  assert.is(readOnly.response.status, 403);
  assert.match((readOnly.error as { message: string }).message, /write:admin/);
  assert.is((await shown('check_repo_stats')).exec_times, before);
});

test.run();
