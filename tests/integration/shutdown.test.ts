// The real process (the production bundle under `make test`): its docs page finds swagger-ui-dist, and
// SIGINT under load lets every request it answers finish without a 5xx (the database closes last).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { processDatabase, removeDir, scratchDir, spawnAnvil, type AnvilProcess } from '../helpers/processes.js';

let proc: AnvilProcess;
let dataDir: string;
let db: Awaited<ReturnType<typeof processDatabase>>;

test.before(async () => {
  dataDir = scratchDir('anvil-shutdown-');
  db = await processDatabase();
  proc = await spawnAnvil({ dataDir, databaseUrl: db.url });
});
test.after(async () => {
  if (proc?.child.exitCode === null) await proc.kill();
  await db?.drop();
  removeDir(dataDir);
});

test('the process serves /api/healthz, the spec and the docs page assets', async () => {
  const health = await fetch(`${proc.url}/api/healthz`);
  assert.is(health.status, 200);
  assert.is(((await health.json()) as { status: string }).status, 'pass');
  const spec = (await (await fetch(`${proc.url}/swagger.v1.json`)).json()) as { servers: Array<{ url: string }> };
  assert.equal(spec.servers, [{ url: `${proc.url}/api/v1` }]);
  const asset = await fetch(`${proc.url}/api/swagger/assets/swagger-ui-bundle.js`);
  assert.is(asset.status, 200);
  assert.match(await asset.text(), 'SwaggerUIBundle');
});

test('SIGINT under load: every request answered gets a non-5xx answer, and the process exits 0', async () => {
  const created = await fetch(`${proc.url}/api/v1/users/root/tokens`, {
    method: 'POST',
    headers: { Authorization: proc.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'load', scopes: ['all'] }),
  });
  assert.is(created.status, 201);
  const token = `token ${((await created.json()) as { sha1: string }).sha1}`;
  const answers: Array<{ status: number; after: boolean; body: string }> = [];
  let signalled = false;
  let exited = false;
  const exit = new Promise<number | null>((resolve) => proc.child.once('exit', (code) => ((exited = true), resolve(code))));
  let n = 0;
  // Reads, writes with git (a repository with a first commit) and sign-ins, on keep-alive connections.
  const requests = [
    () => fetch(`${proc.url}/api/v1/users/root`),
    () => fetch(`${proc.url}/api/v1/user`, { headers: { Authorization: token } }),
    () => fetch(`${proc.url}/api/v1/repos/search?limit=10`, { headers: { Authorization: token } }),
    () =>
      fetch(`${proc.url}/api/v1/user/repos`, {
        method: 'POST',
        headers: { Authorization: token, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `load-${n++}`, auto_init: true }),
      }),
    // A client that gives up: its connection goes while the handler still works on the database.
    () =>
      fetch(`${proc.url}/api/v1/user/repos`, {
        method: 'POST',
        headers: { Authorization: token, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `gone-${n++}`, auto_init: true }),
        signal: AbortSignal.timeout(30),
      }),
  ];
  const worker = async (i: number) => {
    while (!exited) {
      const after = signalled;
      try {
        const r = await requests[i % requests.length]!();
        answers.push({ status: r.status, after, body: r.status >= 500 ? await r.text() : (await r.arrayBuffer(), '') });
      } catch {
        // Refused or cut off once the server stopped listening, or given up: not an answer.
        if (signalled) return;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  };
  const workers = Array.from({ length: 15 }, (_, i) => worker(i));
  await new Promise((r) => setTimeout(r, 1500));
  signalled = true;
  proc.child.kill('SIGINT');
  const code = await exit;
  await Promise.all(workers);
  const failed = answers.filter((a) => a.status >= 500);
  assert.equal(failed, [], proc.output());
  // Nor did a handler whose client had gone meet a closed database.
  assert.not.match(proc.output(), /request failed|CONNECTION_ENDED/, proc.output());
  assert.ok(answers.filter((a) => !a.after).length > 5, `answers before the signal: ${answers.length}`);
  assert.is(code, 0, proc.output());
});

test.run();
