// Parallel pushes spread over TWO anvil processes on one PostgreSQL database and one data folder (issue
// #31): N accepted pushes make exactly N push events, N push deliveries and N workflow runs; and a push
// whose process is killed (SIGKILL) right after git moved the refs is recorded by the other process
// within seconds, once the dead one's lease lapses. Needs PostgreSQL (PGlite is one process's database):
// skipped, with the reason printed, without DATABASE_URL.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { and, eq } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/db/client.js';
import { comments, events, pendingPushes } from '../../src/db/schema/index.js';
import { eventually, fastHooks, receiver, type Receiver } from '../helpers/hooks.js';
import { distinctBranches, distinctTags, pushRepo, sameBranch, type PushWorld } from '../helpers/parallelPushes.js';
import { adminCredentials } from '../helpers/harness.js';
import { pgTemplateUrl, processDatabase, removeDir, scratchDir, spawnAnvil, type AnvilProcess } from '../helpers/processes.js';

const n = 6;
/** A process's git URL for the repository, signed in as the site administrator. */
const gitUrl = (base: string, repo: string) =>
  `${base.replace('://', `://${adminCredentials.username}:${adminCredentials.password}@`)}/${adminCredentials.username}/${repo}.git`;

if (!pgTemplateUrl()) {
  console.log('tests/cluster/pushes.test.ts: skipped, two processes need one PostgreSQL database (set DATABASE_URL)');
} else {
  let rx: Receiver;
  let database: Database;
  let w: PushWorld;
  let dataDir: string;
  let dbUrl: string;
  const started: AnvilProcess[] = [];
  const cleanups: Array<() => Promise<void> | void> = [];
  const env = { ...fastHooks, ACTIONS_POLL_INTERVAL_MS: '50', LEFTOVERS_POLL_INTERVAL_MS: '200', LEFTOVERS_LEASE_SECONDS: '3', CRON_ENABLED: 'false' };

  test.before(async () => {
    rx = await receiver();
    const db = await processDatabase();
    cleanups.push(() => db.drop());
    dbUrl = db.url!;
    dataDir = scratchDir('anvil-cluster-pushes-');
    cleanups.push(() => removeDir(dataDir));
    // The first starts alone (it creates the site administrator), then the second joins it.
    started.push(await spawnAnvil({ dataDir, databaseUrl: dbUrl, env }));
    started.push(await spawnAnvil({ dataDir, databaseUrl: dbUrl, env }));
    database = await openDatabase({ kind: 'postgres', url: dbUrl });
    w = { bases: started.map((p) => p.url), db: database.db, rx, actions: true };
  });
  test.after(async () => {
    for (const p of started) if (p.child.exitCode === null) await p.stop();
    await database?.close();
    for (const c of cleanups.reverse()) await c();
    await rx?.close();
  });

  test(`${n} parallel pushes of new branches over two processes: ${n} push events, deliveries and runs`, async () => {
    await distinctBranches(w, 'two-branches', n);
  });

  test(`${n} parallel forced pushes to one branch over two processes: one event, delivery and run per accepted push`, async () => {
    await sameBranch(w, 'two-same', n);
  });

  test(`${n} parallel pushes of new tags over two processes: ${n} push events, deliveries and runs`, async () => {
    await distinctTags(w, 'two-tags', n);
  });

  test('SIGKILL right after git moved the ref: another process records the push within 10 s', async () => {
    const repo = await pushRepo(w, 'killed-push');
    try {
      // A third process on the same database and data folder dies once git has finished the push.
      const doomed = await spawnAnvil({ dataDir, databaseUrl: dbUrl, env: { ...env, ANVIL_TEST_CRASH_AFTER_PUSH: '1' } });
      started.push(doomed);
      const sha = await repo.commitOn('orphan', 'orphan.txt');
      const pushed = repo.git.run(['push', '--porcelain', gitUrl(doomed.url, repo.name), 'refs/heads/orphan:refs/heads/orphan'], repo.dir);
      const answer = await pushed;
      await eventually(() => doomed.child.exitCode !== null || doomed.child.signalCode !== null, 'the process to die after the push', 10_000);
      const killedAt = Date.now();
      assert.is(doomed.child.signalCode, 'SIGKILL', 'the process died as a crash would');
      assert.is.not(answer.code, 0, 'the client got no answer');
      const remote = await repo.git.run(['ls-remote', gitUrl(w.bases[0]!, repo.name), 'refs/heads/orphan'], repo.dir);
      assert.ok(remote.stdout.startsWith(sha), `git moved the ref before the crash: ${remote.stdout} ${remote.stderr}`);
      const event = await eventually(async () => {
        const rows = await database.db.select().from(events).where(and(eq(events.repoId, repo.repoId), eq(events.type, 'push')));
        return rows.find((r) => (r.data as { ref: string }).ref === 'refs/heads/orphan');
      }, 'the interrupted push recorded by a live process', 10_000);
      assert.ok(Date.now() - killedAt <= 10_000);
      assert.is((event.data as { after: string }).after, sha);
      await eventually(() => rx.of('push').find((r) => JSON.parse(r.body).ref === 'refs/heads/orphan'), 'its delivery', 10_000);
      const left = await database.db.select().from(pendingPushes).where(eq(pendingPushes.repoId, repo.repoId));
      assert.is(left.length, 0, 'no pending push is left');
      const pushes = await database.db.select().from(events).where(and(eq(events.repoId, repo.repoId), eq(events.type, 'push')));
      assert.is(pushes.filter((r) => (r.data as { ref: string }).ref === 'refs/heads/orphan').length, 1, 'recorded once');
    } finally {
      repo.close();
    }
  });

  test('SIGKILL right after a push whose commit fixes an issue: the live process records it, and the issue is closed once', async () => {
    const repo = await pushRepo(w, 'killed-fix');
    try {
      const doomed = await spawnAnvil({ dataDir, databaseUrl: dbUrl, env: { ...env, ANVIL_TEST_CRASH_AFTER_PUSH: '1' } });
      started.push(doomed);
      const index = await repo.newIssue('crashes');
      const sha = (await repo.commitOn('fix', 'fix.txt', `Fixes #${index}`)).trim();
      const answer = await repo.git.run(['push', '--porcelain', gitUrl(doomed.url, repo.name), 'refs/heads/fix:refs/heads/main'], repo.dir);
      await eventually(() => doomed.child.exitCode !== null || doomed.child.signalCode !== null, 'the process to die after the push', 10_000);
      assert.is(doomed.child.signalCode, 'SIGKILL');
      assert.is.not(answer.code, 0, 'the client got no answer');
      await eventually(async () => (await repo.issue(index)).state === 'closed', 'the issue closed by the process that recorded the push', 10_000);
      const closes = await database.db.select().from(events).where(and(eq(events.repoId, repo.repoId), eq(events.type, 'issues'), eq(events.action, 'closed')));
      assert.is(closes.length, 1, 'closed once');
      const entries = await database.db.select().from(comments).where(and(eq(comments.repoId, repo.repoId), eq(comments.type, 'close')));
      assert.equal(entries.map((c) => c.commitSha), [sha]);
    } finally {
      repo.close();
    }
  });
}

test.run();
