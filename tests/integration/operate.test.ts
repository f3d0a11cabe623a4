// Ready to operate (#16): /api/healthz in Gitea's format, the spec as JSON, the documentation page with
// its assets from swagger-ui-dist, and /metrics behind METRICS_ENABLED and METRICS_TOKEN. One app.
import { mkdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadSpec } from '../../src/api/spec.js';
import { loadConfig } from '../../src/config.js';
import { buildOperateRouter } from '../../src/web/operate.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { hookBody, repoHook } from '../helpers/hooks.js';
import { actor, pathOf, userRepo, type Actor } from '../helpers/repos.js';

let app: TestApp;
let owner: Actor;
const metricsToken = 'scrape-secret';

test.before(async () => {
  app = await startApp({ METRICS_ENABLED: 'true', METRICS_TOKEN: metricsToken });
  owner = await actor(app);
});
test.after(async () => {
  await app?.close();
});

type Health = { status: string; description: string; checks: Record<string, Array<{ status: string; time: string; output?: string }>> };

test('GET /api/healthz: pass with each check in Gitea\'s shape and content type', async () => {
  const r = await fetch(`${app.url}/api/healthz`);
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-type'), 'application/health+json');
  const body = (await r.json()) as Health;
  assert.is(body.status, 'pass');
  assert.is(body.description, 'anvil');
  assert.equal(Object.keys(body.checks).sort(), ['data-dir:write', 'database:ping']);
  for (const [name, [c]] of Object.entries(body.checks)) {
    assert.is(c!.status, 'pass', name);
    assert.match(c!.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, `${name} time`);
    assert.is(c!.output, undefined, `${name}: no output when passing`);
  }
});

test('GET /api/healthz: 503 fail when the data folder cannot be written, pass again once it can', async () => {
  // Root ignores permission bits, so the folder goes away instead of losing its write bit.
  rmSync(app.config.dataDir, { recursive: true, force: true });
  try {
    const r = await fetch(`${app.url}/api/healthz`);
    assert.is(r.status, 503);
    assert.is(r.headers.get('content-type'), 'application/health+json');
    const body = (await r.json()) as Health;
    assert.is(body.status, 'fail');
    assert.is(body.checks['data-dir:write']![0]!.status, 'fail');
    assert.is(body.checks['data-dir:write']![0]!.output, undefined, 'the reason goes to the log, as in Gitea');
    assert.is(body.checks['database:ping']![0]!.status, 'pass');
  } finally {
    mkdirSync(app.config.dataDir, { recursive: true });
  }
  assert.is((await fetch(`${app.url}/api/healthz`)).status, 200);
});

test('GET /swagger.v1.json and /api/v1/openapi.json: the spec as JSON, servers from ROOT_URL', async () => {
  const doc = loadSpec();
  for (const path of ['/swagger.v1.json', '/api/v1/openapi.json']) {
    const r = await fetch(`${app.url}${path}`);
    assert.is(r.status, 200, path);
    assert.match(r.headers.get('content-type')!, /^application\/json/);
    const body = (await r.json()) as { openapi: string; servers: Array<{ url: string }>; paths: Record<string, unknown> };
    assert.equal(body.servers, [{ url: `${app.config.rootUrl}api/v1` }], path);
    assert.is(body.openapi, doc.openapi);
    assert.equal(Object.keys(body.paths), Object.keys(doc.paths), path);
  }
});

test('GET /api/swagger: the page loads its assets from the package and the spec from /swagger.v1.json', async () => {
  const r = await fetch(`${app.url}/api/swagger`);
  assert.is(r.status, 200);
  assert.match(r.headers.get('content-type')!, /^text\/html/);
  const html = await r.text();
  const base = new URL(`${app.url}/api/swagger`);
  const links = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1]!, base));
  assert.ok(links.some((u) => u.pathname === '/api/swagger/assets/swagger-ui-bundle.js'), html);
  assert.ok(links.some((u) => u.pathname === '/api/swagger/assets/swagger-ui.css'), html);
  for (const u of links) {
    const a = await fetch(u);
    assert.is(a.status, 200, u.pathname);
    if (u.pathname.startsWith('/api/swagger/assets/')) assert.match(a.headers.get('cache-control')!, /max-age=\d{5,}/, u.pathname);
    const text = await a.text();
    if (u.pathname === '/api/swagger/init.js') {
      // The spec it points at, resolved against the page, is the one served above; sign-in persists.
      const spec = /url: '([^']+)'/.exec(text)![1]!;
      assert.is(new URL(spec, base).pathname, '/swagger.v1.json');
      assert.match(text, 'persistAuthorization: true');
    }
    if (u.pathname.endsWith('swagger-ui-bundle.js')) assert.match(text, 'SwaggerUIBundle');
  }
  // Only the package's own files; no way out of its folder.
  assert.is((await fetch(`${app.url}/api/swagger/assets/package.json`)).status, 404);
  assert.is((await fetch(`${app.url}/api/swagger/assets/..%2Fpackage.json`)).status, 404);
});

test('the spec lets the docs page sign in with a token header and try a request', async () => {
  const body = (await (await fetch(`${app.url}/swagger.v1.json`)).json()) as { components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> } };
  assert.equal(body.components.securitySchemes.AuthorizationHeaderToken, { ...body.components.securitySchemes.AuthorizationHeaderToken, type: 'apiKey', in: 'header', name: 'Authorization' });
  // What "Try it out" sends after "Authorize" with `token <token>`.
  const token = await app.token(owner);
  const r = await fetch(`${app.config.rootUrl}api/v1/user`, { headers: { Authorization: token } });
  assert.is(r.status, 200);
});

test('GET /metrics: 401 without the bearer token or with a wrong one', async () => {
  const none = await fetch(`${app.url}/metrics`);
  assert.is(none.status, 401);
  assert.is((await fetch(`${app.url}/metrics`, { headers: { Authorization: 'Bearer wrong' } })).status, 401);
  assert.is((await fetch(`${app.url}/metrics`, { headers: { Authorization: `token ${metricsToken}` } })).status, 401);
});

const scrape = async () => {
  const r = await fetch(`${app.url}/metrics`, { headers: { Authorization: `Bearer ${metricsToken}` } });
  assert.is(r.status, 200);
  assert.match(r.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
  return r.text();
};

const sample = (text: string, name: string, labels = ''): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `) || (labels === '' && l.startsWith(`${name} `)));
  return line === undefined ? undefined : Number(line.split(' ').pop());
};

test('GET /metrics: request durations by operationId and status, git commands, process metrics', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  assert.is((await app.client(owner.auth).GET('/repos/{owner}/{repo}', { params: { path: pathOf(repo) } })).response.status, 200);
  assert.is((await fetch(`${app.url}/no/such/page`)).status, 404);
  const text = await scrape();
  assert.ok((sample(text, 'anvil_http_request_duration_seconds_count', '{operation="repoGet",status="200"}') ?? 0) >= 1, 'repoGet 200');
  assert.ok((sample(text, 'anvil_http_request_duration_seconds_count', '{operation="createCurrentUserRepo",status="201"}') ?? 0) >= 1, 'create 201');
  assert.ok((sample(text, 'anvil_http_request_duration_seconds_count', '{operation="unmatched",status="404"}') ?? 0) >= 1, 'unmatched 404');
  assert.ok((sample(text, 'anvil_http_request_duration_seconds_count', '{operation="healthz",status="503"}') ?? 0) >= 1, 'healthz 503');
  assert.match(text, /anvil_git_command_duration_seconds_count\{command="[a-z-]+"\} [1-9]/);
  assert.match(text, /^process_cpu_user_seconds_total /m);
  // Labels stay the operationId and the status: no paths, ids or users.
  assert.not.match(text, repo.name);
});

test('GET /metrics: database query durations by engine and statement kind, and the pool', async () => {
  const engine = process.env.ANVIL_TEST_PG_URL ? 'postgres' : 'pglite';
  const count = (text: string, statement: string) =>
    sample(text, 'anvil_db_query_duration_seconds_count', `{engine="${engine}",statement="${statement}"}`) ?? 0;
  const before = await scrape();
  const repo = await userRepo(app, owner);
  assert.is((await app.client(owner.auth).GET('/repos/{owner}/{repo}', { params: { path: pathOf(repo) } })).response.status, 200);
  const after = await scrape();
  assert.ok(count(after, 'select') > count(before, 'select'), 'selects counted');
  assert.ok(count(after, 'insert') > count(before, 'insert'), 'the repository\'s insert counted');
  assert.match(after, new RegExp(`^anvil_db_query_duration_seconds_bucket\\{le="0\\.001",engine="${engine}",statement="select"\\} \\d+$`, 'm'));
  assert.ok((sample(after, 'anvil_db_query_duration_seconds_sum', `{engine="${engine}",statement="select"}`) ?? 0) > 0, 'time summed');
  assert.is(sample(after, 'anvil_db_pool_max_connections', `{engine="${engine}"}`), engine === 'pglite' ? 1 : 10);
  // Counted up and down around each query: never negative.
  assert.ok((sample(after, 'anvil_db_queries_in_flight', `{engine="${engine}"}`) ?? -1) >= 0, 'queries in flight');
  // Labels are the engine and the statement kind: never SQL text, tables or values.
  assert.not.match(after.split('\n').filter((l) => l.startsWith('anvil_db_')).join('\n'), /from|"users"|repositor/i);
});

test('GET /metrics: the webhook queue depth and the age of its oldest pending delivery', async () => {
  const before = await scrape();
  assert.is(sample(before, 'anvil_webhook_deliveries_pending'), 0);
  assert.is(sample(before, 'anvil_webhook_oldest_pending_age_seconds'), 0);
  const repo = await userRepo(app, owner, { auto_init: true });
  // No delivery worker runs in this app: the test delivery stays pending.
  const hook = await repoHook(app, owner.auth, pathOf(repo), hookBody('http://127.0.0.1:9/hook'));
  const t = await app.client(owner.auth).POST('/repos/{owner}/{repo}/hooks/{id}/tests', { params: { path: { ...pathOf(repo), id: hook.id } } });
  assert.is(t.response.status, 204);
  await new Promise((r) => setTimeout(r, 1100));
  const after = await scrape();
  assert.is(sample(after, 'anvil_webhook_deliveries_pending'), 1);
  assert.ok(sample(after, 'anvil_webhook_oldest_pending_age_seconds')! >= 1, after.split('\n').filter((l) => l.includes('webhook')).join('\n'));
});

test('/metrics answers 404 unless METRICS_ENABLED; without METRICS_TOKEN it is open', async () => {
  const serve = async (metrics: { enabled: boolean; token: string | undefined }) => {
    const koa = new Koa().use(buildOperateRouter(app.services, { ...app.config, metrics }, loadSpec()).routes());
    const server = koa.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      return (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)).status;
    } finally {
      server.close();
    }
  };
  assert.is(await serve({ enabled: false, token: undefined }), 404);
  assert.is(await serve({ enabled: false, token: 'x' }), 404);
  assert.is(await serve({ enabled: true, token: undefined }), 200);
});

test('config: LOG_FORMAT json or pretty, METRICS_* read as Gitea names them', () => {
  assert.is(loadConfig({}).logFormat, 'json');
  assert.is(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat, 'pretty');
  assert.throws(() => loadConfig({ LOG_FORMAT: 'xml' }), /LOG_FORMAT/);
  assert.equal(loadConfig({}).metrics, { enabled: false, token: undefined });
  assert.equal(loadConfig({ METRICS_ENABLED: 'true', METRICS_TOKEN: 't' }).metrics, { enabled: true, token: 't' });
});

test.run();
