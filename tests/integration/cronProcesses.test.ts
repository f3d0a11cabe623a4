// The scheduler in real processes: a task scheduled every second runs in `make run`'s process; with two
// processes on one PostgreSQL each scheduled moment runs once, and a task whose lock another holds is
// skipped in both.
import postgres from 'postgres';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lockIds } from '../../src/db/client.js';
import { pgTemplateUrl, processDatabase, removeDir, scratchDir, spawnAnvil, type AnvilProcess } from '../helpers/processes.js';

const started: AnvilProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
test.after(async () => {
  for (const p of started) if (p.child.exitCode === null) await p.kill();
  for (const c of cleanups) await c();
});

// check_repo_stats every second, not at start (so every run is a scheduled one).
const everySecond = { CRON_CHECK_REPO_STATS_SCHEDULE: '* * * * * *', CRON_CHECK_REPO_STATS_RUN_AT_START: 'false' };

interface Cron { name: string; schedule: string; prev: string; exec_times: number }
async function task(p: AnvilProcess, name: string): Promise<Cron> {
  const res = await fetch(`${p.url}/api/v1/admin/cron?limit=50`, { headers: { Authorization: p.auth } });
  assert.is(res.status, 200);
  return ((await res.json()) as Cron[]).find((t) => t.name === name)!;
}
const runNow = async (p: AnvilProcess, name: string) =>
  (await fetch(`${p.url}/api/v1/admin/cron/${name}`, { method: 'POST', headers: { Authorization: p.auth } })).status;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the scheduler of a running server runs a task at its times', async () => {
  const db = await processDatabase();
  const dir = scratchDir('anvil-cron-');
  cleanups.push(() => db.drop(), () => removeDir(dir));
  const p = await spawnAnvil({ dataDir: dir, databaseUrl: db.url, env: everySecond });
  started.push(p);
  const first = await task(p, 'check_repo_stats');
  assert.is(first.schedule, '* * * * * *');
  await sleep(3500);
  const later = await task(p, 'check_repo_stats');
  assert.ok(later.exec_times >= 2 && later.exec_times <= 5, `ran ${later.exec_times} times in 3.5 s`);
  assert.ok(Date.now() - Date.parse(later.prev) < 3000, `prev ${later.prev} is recent`);
  await p.stop();
});

if (pgTemplateUrl()) {
  test('two processes on one PostgreSQL: each scheduled moment runs once; a held lock skips both', async () => {
    const db = await processDatabase();
    const dirs = [scratchDir('anvil-cron-a-'), scratchDir('anvil-cron-b-')];
    cleanups.push(() => db.drop(), ...dirs.map((d) => () => removeDir(d)));
    const a = await spawnAnvil({ dataDir: dirs[0]!, databaseUrl: db.url, env: everySecond });
    const b = await spawnAnvil({ dataDir: dirs[1]!, databaseUrl: db.url, env: everySecond });
    started.push(a, b);
    const sql = postgres(db.url!, { max: 1, onnotice: () => {} });
    cleanups.unshift(() => sql.end());
    const skipped = async () => Number((await sql<{ n: string }[]>`select skipped_times::text as n from cron_tasks where name = 'check_repo_stats'`)[0]?.n ?? 0);

    const t0 = Date.now();
    const before = (await task(a, 'check_repo_stats')).exec_times;
    await sleep(5000);
    const ran = (await task(b, 'check_repo_stats')).exec_times - before;
    const seconds = Math.ceil((Date.now() - t0) / 1000);
    // Both processes fire at every second; one of them runs it. Twice the seconds would mean both ran.
    assert.ok(ran >= 3 && ran <= seconds + 1, `ran ${ran} times in ${seconds} s (both processes: about ${2 * seconds})`);
    assert.ok((await skipped()) >= ran - 2, `the other process skipped its moments too (${await skipped()} skipped)`);

    // This test holds the task's advisory lock, as a third process running it would: both skip it.
    await sql.unsafe(`update cron_tasks set skipped_times = 0 where name = 'archive_cleanup'`);
    const [ns, id] = lockIds('cron:archive_cleanup');
    await sql`select pg_advisory_lock(${ns}::int, ${id}::int)`;
    const runs = (await task(a, 'archive_cleanup')).exec_times;
    assert.equal([await runNow(a, 'archive_cleanup'), await runNow(b, 'archive_cleanup')], [204, 204]);
    assert.is((await task(a, 'archive_cleanup')).exec_times, runs, 'neither ran it');
    assert.is(Number((await sql<{ n: string }[]>`select skipped_times::text as n from cron_tasks where name = 'archive_cleanup'`)[0]!.n), 2);
    await sql`select pg_advisory_unlock(${ns}::int, ${id}::int)`;
    assert.is(await runNow(b, 'archive_cleanup'), 204);
    assert.is((await task(a, 'archive_cleanup')).exec_times, runs + 1, 'free again: it runs');
    await Promise.all([a.stop(), b.stop()]);
  });
}

test.run();
