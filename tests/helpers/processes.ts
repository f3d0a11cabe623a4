// Real anvil processes (the built `dist/main.js`) for the tests that kill one or run two on one
// database: each gets its own port and data folder; on PostgreSQL they share a fresh clone of the run's
// migrated template, on PGlite a data folder (one process at a time).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromRoot } from '../../src/paths.js';
import { maintenance, withDatabase } from './template.js';
import { adminCredentials, basic } from './harness.js';

export const pgTemplateUrl = () => process.env.ANVIL_TEST_PG_URL ?? (process.env.DATABASE_URL || undefined);

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A database for spawned processes: a PostgreSQL clone of the template (dropped by `drop`), or none (PGlite). */
export async function processDatabase(): Promise<{ url?: string; drop(): Promise<void> }> {
  const tpl = pgTemplateUrl();
  if (!tpl) return { drop: async () => {} };
  const name = `${new URL(tpl).pathname.slice(1)}_p${process.pid}_${Date.now().toString(36)}`;
  const admin = maintenance(tpl);
  await admin.unsafe(`create database "${name}" template "${new URL(tpl).pathname.slice(1)}"`).finally(() => admin.end());
  return {
    url: withDatabase(tpl, name),
    drop: async () => {
      const a = maintenance(tpl);
      await a.unsafe(`drop database if exists "${name}" with (force)`).finally(() => a.end());
    },
  };
}

export interface AnvilProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  auth: string;
  /** SIGKILL, and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM, and wait for the exit. */
  stop(): Promise<void>;
}

export async function spawnAnvil(opts: { dataDir: string; databaseUrl?: string; env?: Record<string, string> }): Promise<AnvilProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), NO_COLOR: '1',
    PORT: String(port), HOST: '127.0.0.1', ROOT_URL: `${url}/`, DATA_DIR: opts.dataDir, LOG_LEVEL: 'warn',
    ADMIN_USERNAME: adminCredentials.username, ADMIN_PASSWORD: adminCredentials.password, ADMIN_EMAIL: adminCredentials.email,
    PASSWORD_HASH_COST: '10',
    // Each process's SSH server on a port of its own (two processes may run at once).
    SSH_PORT: String(await freePort()),
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...opts.env,
  };
  // The production bundle `make test` builds first (so these tests check it); src/ when run without make.
  const args = existsSync(fromRoot('dist', 'main.js')) ? [fromRoot('dist', 'main.js')] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited early: ${out}`);
    const ok = await fetch(`${url}/api/v1/version`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`anvil did not start within 180 s: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    output: () => out,
    auth: basic(adminCredentials.username, adminCredentials.password),
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export const scratchDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });
