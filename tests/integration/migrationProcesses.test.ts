// Migrations and pull mirrors across real processes (#39): a process killed (SIGKILL) at the worst
// moment leaves a clear state that the next process (here the restarted one) finishes.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, receiver, type Receiver } from '../helpers/hooks.js';
import { processDatabase, removeDir, scratchDir, spawnAnvil, type AnvilProcess } from '../helpers/processes.js';

let rx: Receiver;
const started: AnvilProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

test.before(async () => {
  rx = await receiver();
});
test.after(async () => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) await p.kill();
  for (const c of cleanups) await c();
  await rx?.close();
});

const env = {
  MIGRATIONS_ALLOW_LOCALNETWORKS: 'true', MIRROR_MIN_INTERVAL: '0', MIRROR_LEASE_SECONDS: '1', CRON_ENABLED: 'false',
  WEBHOOK_ALLOWED_HOST_LIST: 'loopback', WEBHOOK_POLL_INTERVAL_MS: '30', WEBHOOK_RETRY_BASE_MS: '40',
};

async function api(p: AnvilProcess, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${p.url}/api/v1${path}`, {
    method, headers: { Authorization: p.auth, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const died = async (p: AnvilProcess, what: string) => {
  await eventually(() => p.child.exitCode !== null || p.child.signalCode !== null, what, 20_000);
  assert.is(p.child.signalCode, 'SIGKILL', `the process died as a crash would: ${p.output().slice(-2000)}`);
};

test('a mirror sync killed between its fetch and its record: the next sync records the push once', async () => {
  const db = await processDatabase();
  const dataDir = scratchDir('anvil-mirror-kill-');
  cleanups.push(() => db.drop(), () => removeDir(dataDir));
  const doomed = await spawnAnvil({ dataDir, databaseUrl: db.url, env: { ...env, ANVIL_TEST_CRASH_AFTER_MIRROR_FETCH: '1' } });
  started.push(doomed);
  assert.is((await api(doomed, 'POST', '/user/repos', { name: 'upstream', auto_init: true })).status, 201);
  const m = await api(doomed, 'POST', '/repos/migrate', { clone_addr: `${doomed.url}/root/upstream.git`, repo_name: 'copy', mirror: true, mirror_interval: '0' });
  assert.is(m.status, 201, JSON.stringify(m.json));
  const branch = m.json.default_branch as string;
  const hook = await api(doomed, 'POST', '/repos/root/copy/hooks', { type: 'gitea', active: true, events: ['push'], config: { url: rx.url, content_type: 'json' } });
  assert.is(hook.status, 201);
  const file = await api(doomed, 'POST', '/repos/root/upstream/contents/new.txt', { content: Buffer.from('new\n').toString('base64'), message: 'new upstream' });
  assert.is(file.status, 201, JSON.stringify(file.json));
  const sha = file.json.commit.sha as string;
  assert.is((await api(doomed, 'POST', '/repos/root/copy/mirror-sync')).status, 200);
  await died(doomed, 'the process to die after the mirror fetch');

  const next = await spawnAnvil({ dataDir, databaseUrl: db.url, env });
  started.push(next);
  const tip = await api(next, 'GET', `/repos/root/copy/branches/${branch}`);
  assert.is(tip.json.commit.id, sha, 'git moved the ref before the crash');
  const pushesOf = () => rx.received.filter((r) => r.headers['x-gitea-event'] === 'push' && JSON.parse(r.body).repository?.name === 'copy');
  assert.is(pushesOf().length, 0, 'nothing recorded before the crash');
  // The dead sync's claim lapses (MIRROR_LEASE_SECONDS=1); the next sync records what the dead one fetched.
  await new Promise((r) => setTimeout(r, 1100));
  assert.is((await api(next, 'POST', '/repos/root/copy/mirror-sync')).status, 200);
  const got = await eventually(() => pushesOf()[0], 'the push event of the changes fetched before the crash', 20_000).catch(async (err) => {
    console.log(next.output(), JSON.stringify((await api(next, 'GET', '/repos/root/copy/hooks')).json), rx.received.map((r) => r.headers['x-gitea-event']));
    throw err;
  });
  const payload = JSON.parse(got.body);
  assert.is(payload.ref, `refs/heads/${branch}`);
  assert.is(payload.after, sha);
  assert.is(payload.commits.length, 1);
  // Another sync has nothing new: the event stays single.
  const lastSync = (await api(next, 'GET', '/repos/root/copy')).json.mirror_updated as string;
  await new Promise((r) => setTimeout(r, 1100));
  assert.is((await api(next, 'POST', '/repos/root/copy/mirror-sync')).status, 200);
  await eventually(async () => (await api(next, 'GET', '/repos/root/copy')).json.mirror_updated !== lastSync || undefined, 'the next sync to finish', 10_000);
  await new Promise((r) => setTimeout(r, 500));
  assert.is(pushesOf().length, 1, 'recorded exactly once');
  await next.stop();
});

test('a process killed mid migration: its task failed with a message, no repository, the scratch folder removed by the next process, the name free again', async () => {
  const db = await processDatabase();
  const dataDir = scratchDir('anvil-migrate-kill-');
  cleanups.push(() => db.drop(), () => removeDir(dataDir));
  const fast = { ...env, LEFTOVERS_LEASE_SECONDS: '1', LEFTOVERS_POLL_INTERVAL_MS: '200' };
  // The doomed process leases its journal for 10 s (a 1 s lease can lapse while a loaded machine stalls it,
  // and its own leftovers worker would then take the migration's journal over); the next one claims fast.
  const doomed = await spawnAnvil({ dataDir, databaseUrl: db.url, env: { ...fast, LEFTOVERS_LEASE_SECONDS: '10', ANVIL_TEST_CRASH_MID_MIGRATION: '1' } });
  started.push(doomed);
  assert.is((await api(doomed, 'POST', '/user/repos', { name: 'origin', auto_init: true })).status, 201);
  const body = { clone_addr: `${doomed.url}/root/origin.git`, repo_name: 'moved' };
  await api(doomed, 'POST', '/repos/migrate', body).then((a) => assert.unreachable(`the process answered ${a.status} ${JSON.stringify(a.json)}`), () => undefined);
  await died(doomed, 'the process to die mid migration');
  const scratch = () => (existsSync(join(dataDir, 'tmp')) ? readdirSync(join(dataDir, 'tmp')).filter((n) => /^(creating|scratch)-/.test(n)) : []);
  assert.ok(scratch().length > 0, 'the dead migration left its scratch folder');

  const next = await spawnAnvil({ dataDir, databaseUrl: db.url, env: fast });
  started.push(next);
  // The dead process's task lapses (LEFTOVERS_LEASE_SECONDS=1): the live one fails it with a message and
  // removes the placeholder repository. The database is this test's own: the task is the first.
  const ended = await eventually(async () => {
    const res = await fetch(`${next.url}/user/task/1`, { headers: { Authorization: next.auth } });
    const t = (await res.json()) as { status: number; message: string; 'repo-id': number; 'repo-name': string };
    return t.status === 3 ? t : undefined;
  }, 'the dead migration\'s task to be failed', 30_000);
  assert.match(ended!.message, /interrupted: the process running it stopped/);
  assert.is(ended!['repo-name'], 'moved');
  assert.is(ended!['repo-id'], 0);
  assert.is((await api(next, 'GET', '/repos/root/moved')).status, 404, 'no half-made repository');
  await eventually(() => scratch().length === 0, 'the scratch folder removed by the live process', 30_000).catch((err) => {
    console.log('left in tmp:', scratch(), '\nthe live process said:\n', next.output().slice(-4000));
    throw err;
  });
  const again = await api(next, 'POST', '/repos/migrate', { ...body, clone_addr: `${next.url}/root/origin.git` }).catch((err) => {
    console.log('the live process', next.child.exitCode, next.child.signalCode, 'said:\n', next.output().slice(-6000));
    throw err;
  });
  assert.is(again.status, 201, JSON.stringify(again.json));
  assert.is(again.json.empty, false);
  await next.stop();
});

test.run();
