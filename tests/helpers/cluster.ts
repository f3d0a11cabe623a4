// Several anvil processes as a team runs them (docs/many-processes.md): real `dist/main.js` processes on
// one fresh PostgreSQL database and one shared DATA_DIR, behind a real reverse proxy (Debian's haproxy,
// round robin per request) that this helper starts. Each process can also be called directly, so a test
// can change something through one and ask the other on the very next request.
//
// PostgreSQL only (a PGlite data folder belongs to one process). Without haproxy the tests are skipped
// with a printed reason, except in CI (CI=true), where that is a failure: `.ci/run` installs it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { adminCredentials, basic } from './harness.js';
import { freePort, pgTemplateUrl, removeDir, scratchDir, spawnAnvil, type AnvilProcess } from './processes.js';
import { maintenance, withDatabase } from './template.js';

const haproxyCandidates = [process.env.HAPROXY_PATH, '/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'];
export const haproxyPath = haproxyCandidates.find((p): p is string => !!p && existsSync(p));

/** What a cluster test file registers its tests and hooks with. */
export type ClusterTest = ((name: string, fn: () => void | Promise<void>) => void) & {
  before(fn: () => void | Promise<void>): void;
  after(fn: () => void | Promise<void>): void;
  run(): void;
};

/**
 * The uvu `test` to register cluster tests with: the real one on PostgreSQL with haproxy installed;
 * otherwise one that skips them with a printed reason, or (haproxy missing in CI) one failing test.
 */
export function clusterTest(file: string): ClusterTest {
  const inert = (register: (name: string, fn: () => void | Promise<void>) => void): ClusterTest =>
    Object.assign(register, { before: () => {}, after: () => {}, run: () => uvuTest.run() });
  const skip = (why: string) => {
    process.stdout.write(`${file}: skipped: ${why}\n`);
    return inert((name, fn) => uvuTest.skip(name, fn));
  };
  if (!pgTemplateUrl()) return skip('several processes need PostgreSQL (a PGlite data folder has one process); it runs in the PostgreSQL pass');
  if (haproxyPath) return uvuTest as unknown as ClusterTest;
  if (process.env.CI === 'true') {
    uvuTest(`${file}: haproxy is installed`, () => {
      assert.unreachable('no haproxy: .ci/run installs it (apt-get install haproxy); HAPROXY_PATH names another');
    });
    return inert(() => {});
  }
  return skip('no haproxy (apt-get install haproxy, or set HAPROXY_PATH)');
}

export interface Cluster {
  /** The processes, each addressed directly. */
  nodes: AnvilProcess[];
  /** Each process's SSH port, in the order of `nodes`. */
  sshPorts: number[];
  /** The reverse proxy's URL (every process's ROOT_URL), without the trailing slash. */
  url: string;
  dataDir: string;
  databaseUrl: string;
  /** Basic authentication of the site administrator the first start made. */
  auth: string;
  /** Stops the processes (SIGTERM) and the proxy, drops the database and removes the data folder. */
  close(): Promise<void>;
}

/** A new empty database on the test run's server (named so that the run's clean-up drops it too). */
async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const tpl = pgTemplateUrl()!;
  const name = `${new URL(tpl).pathname.slice(1)}_fcluster${process.pid}_${Date.now().toString(36)}`;
  const admin = maintenance(tpl);
  await admin.unsafe(`create database "${name}"`).finally(() => admin.end());
  return {
    url: withDatabase(tpl, name),
    drop: async () => {
      const a = maintenance(tpl);
      await a.unsafe(`drop database if exists "${name}" with (force)`).finally(() => a.end());
    },
  };
}

async function startProxy(port: number, backends: number[]): Promise<{ child: ChildProcess; output: () => string; stop(): Promise<void> }> {
  const dir = scratchDir('anvil-haproxy-');
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, [
    'global',
    '  maxconn 512',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 120s',
    '  timeout server 120s',
    'frontend anvil',
    `  bind 127.0.0.1:${port}`,
    '  default_backend processes',
    'backend processes',
    // Each request to the next process, keep-alive or not: what a team's proxy does, and the worst case.
    '  balance roundrobin',
    '  http-response set-header X-Anvil-Process %s',
    ...backends.map((p, i) => `  server p${i} 127.0.0.1:${p}`),
    '',
  ].join('\n'));
  const check = spawnSync(haproxyPath!, ['-c', '-q', '-f', cfg], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy refused its configuration: ${check.stderr}${check.stdout}`);
  const child = spawn(haproxyPath!, ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      removeDir(dir);
    },
  };
}

/**
 * `count` (2) processes on one empty PostgreSQL database and one DATA_DIR, started at the same moment
 * (the first start's migrations and administrator happen while they race), behind haproxy.
 */
export async function startCluster(opts: { count?: number; env?: Record<string, string> } = {}): Promise<Cluster> {
  const count = opts.count ?? 2;
  const db = await emptyDatabase();
  const dataDir = scratchDir('anvil-cluster-');
  const proxyPort = await freePort();
  const url = `http://127.0.0.1:${proxyPort}`;
  // Each process on this one host needs an SSH port of its own (in production they would agree).
  const sshPorts = await Promise.all(Array.from({ length: count }, () => freePort()));
  const settled = await Promise.allSettled(sshPorts.map((ssh) =>
    spawnAnvil({ dataDir, databaseUrl: db.url, env: { ROOT_URL: `${url}/`, SSH_PORT: String(ssh), ...opts.env } })));
  const nodes = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const cleanUp = async () => {
    for (const n of nodes) if (n.child.exitCode === null) await n.kill();
    await db.drop();
    removeDir(dataDir);
  };
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await cleanUp();
    throw failed.reason;
  }
  const proxy = await startProxy(proxyPort, nodes.map((n) => Number(new URL(n.url).port)));
  const deadline = Date.now() + 30_000;
  while (!(await fetch(`${url}/api/v1/version`).then((r) => r.ok, () => false))) {
    if (proxy.child.exitCode !== null || Date.now() > deadline) {
      await proxy.stop();
      await cleanUp();
      throw new Error(`haproxy did not come up: ${proxy.output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    nodes,
    sshPorts,
    url,
    dataDir,
    databaseUrl: db.url,
    auth: basic(adminCredentials.username, adminCredentials.password),
    close: async () => {
      await proxy.stop();
      await Promise.all(nodes.map((n) => (n.child.exitCode === null ? n.stop() : undefined)));
      await cleanUp();
    },
  };
}

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  /** Which process answered, when asked through the proxy (`p0`, `p1`, …). */
  process: string | null;
}

/** One API call to `base` (a process's URL or the proxy's) with an Authorization header. */
export async function call(base: string, auth: string | undefined, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (auth) headers.Authorization = auth;
  const res = await fetch(`${base}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: kept as text for the assertion message
  }
  return { status: res.status, json, process: res.headers.get('x-anvil-process') };
}
