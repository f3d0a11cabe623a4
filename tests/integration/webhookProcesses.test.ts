// Webhook delivery across real processes: a change acknowledged by a process that is then killed with
// SIGKILL is delivered by the next one; two processes on one PostgreSQL deliver each payload once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, receiver, type Receiver } from '../helpers/hooks.js';
import { pgTemplateUrl, processDatabase, removeDir, scratchDir, spawnAnvil, type AnvilProcess } from '../helpers/processes.js';

let rx: Receiver;
const started: AnvilProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

test.before(async () => {
  rx = await receiver();
});
test.after(async () => {
  for (const p of started) if (p.child.exitCode === null) await p.kill();
  for (const c of cleanups) await c();
  await rx?.close();
});

const fastWorker = { WEBHOOK_ALLOWED_HOST_LIST: 'loopback', WEBHOOK_POLL_INTERVAL_MS: '30', WEBHOOK_RETRY_BASE_MS: '40' };

async function api(p: AnvilProcess, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${p.url}/api/v1${path}`, {
    method, headers: { Authorization: p.auth, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function repoWithHook(p: AnvilProcess, name: string): Promise<number> {
  assert.is((await api(p, 'POST', '/user/repos', { name, auto_init: true })).status, 201);
  const hook = await api(p, 'POST', `/repos/root/${name}/hooks`, { type: 'gitea', active: true, events: ['create'], config: { url: rx.url, content_type: 'json' } });
  assert.is(hook.status, 201, JSON.stringify(hook.json));
  return hook.json.id;
}

test('SIGKILL after the change was acknowledged and before delivery: the next process delivers it', async () => {
  const db = await processDatabase();
  const dataDir = scratchDir('anvil-kill-');
  cleanups.push(() => db.drop(), () => removeDir(dataDir));
  // The first process queues deliveries but sends none (its delivery worker is off), then dies.
  const first = await spawnAnvil({ dataDir, databaseUrl: db.url, env: { ...fastWorker, WEBHOOK_DELIVERY_ENABLED: 'false' } });
  started.push(first);
  await repoWithHook(first, 'crash');
  const b = await api(first, 'POST', '/repos/root/crash/branches', { new_branch_name: 'survivor' });
  assert.is(b.status, 201, 'acknowledged');
  await first.kill();
  assert.is(rx.received.length, 0, 'nothing was sent before the crash');
  const second = await spawnAnvil({ dataDir, databaseUrl: db.url, env: fastWorker });
  started.push(second);
  const got = await eventually(() => rx.received.find((r) => JSON.parse(r.body).ref === 'survivor'), 'the delivery after the restart', 30_000);
  assert.is(got.headers['x-gitea-event'], 'create');
  await second.stop();
});

if (pgTemplateUrl()) {
  test('two processes on one PostgreSQL: each delivery is attempted by exactly one of them', async () => {
    const db = await processDatabase();
    const dirs = [scratchDir('anvil-two-a-'), scratchDir('anvil-two-b-')];
    cleanups.push(() => db.drop(), ...dirs.map((d) => () => removeDir(d)));
    const [a, b] = [await spawnAnvil({ dataDir: dirs[0]!, databaseUrl: db.url, env: fastWorker }), await spawnAnvil({ dataDir: dirs[1]!, databaseUrl: db.url, env: fastWorker })];
    started.push(a, b);
    const before = rx.received.length;
    const hookId = await repoWithHook(a, 'twice');
    const n = 30;
    await Promise.all(Array.from({ length: n }, (_, i) => api(a, 'POST', '/repos/root/twice/branches', { new_branch_name: `b${i}` })));
    const mine = () => rx.received.slice(before).filter((r) => JSON.parse(r.body).repository?.name === 'twice');
    await eventually(() => mine().length >= n, `${n} deliveries`, 30_000);
    // Every delivery ended after one attempt: a claim counts an attempt, whichever process made it.
    const list = await api(b, 'GET', `/repos/root/twice/hooks/${hookId}/deliveries?limit=50`);
    assert.is(list.json.length, n);
    assert.equal([...new Set(list.json.map((d: { state: string; attempts: number }) => `${d.state}/${d.attempts}`))], ['delivered/1']);
    const guids = mine().map((r) => String(r.headers['x-gitea-delivery']));
    assert.is(guids.length, n, 'no delivery twice');
    assert.is(new Set(guids).size, n);
    await Promise.all([a.stop(), b.stop()]);
  });
} else {
  console.log('two-process delivery test: PostgreSQL only (PGlite is one process); it runs in the PostgreSQL pass');
}

test.run();
