// Each test file runs the real app on an ephemeral port against its own database (cloned from the
// run's migrated template) and a temp DATA_DIR, and talks to it over HTTP.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import type { paths } from '../../generated/openapi.js';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { ensureFirstAdmin } from '../../src/services/users/bootstrap.js';
import { Services } from '../../src/services/index.js';
import { HookDeliveryWorker } from '../../src/jobs/hookDelivery.js';
import { ActionTriggerWorker } from '../../src/jobs/actionTriggers.js';
import { AutoMergeWorker } from '../../src/jobs/autoMerge.js';
import { CodeIndexWorker } from '../../src/jobs/codeIndex.js';
import { RepoStatsWorker } from '../../src/jobs/repoStats.js';
import { PushMirrorWorker } from '../../src/jobs/pushMirrors.js';
import { loadSpec } from '../../src/api/spec.js';
import { createLogger } from '../../src/log.js';
import { payloads } from '../../src/present/payloads.js';
import { startS3 } from './s3.js';
import { maintenance, preparePostgresTemplate, readPgliteTemplate, withDatabase, writePgliteTemplate } from './template.js';

export const adminCredentials = { username: 'root', password: 'root-password', email: 'root@example.com' };

let fileCounter = 0;
/** The spec, read once per process: every app of a batch shares it (and so its compiled validators, src/api/validate.ts). */
let specDoc: ReturnType<typeof loadSpec> | undefined;

async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const pgUrl = process.env.ANVIL_TEST_PG_URL ?? (process.env.DATABASE_URL || undefined);
  if (pgUrl) {
    const template = new URL(pgUrl).pathname.slice(1);
    if (!process.env.ANVIL_TEST_PG_URL) await preparePostgresTemplate(pgUrl); // a file run on its own
    const name = `${template}_f${process.pid}_${fileCounter++}`;
    const admin = maintenance(pgUrl);
    try {
      await admin.unsafe(`create database "${name}" template "${template}"`);
    } finally {
      await admin.end();
    }
    const database = await openDatabase({ kind: 'postgres', url: withDatabase(pgUrl, name) });
    return {
      database,
      drop: async () => {
        await database.close();
        const a = maintenance(pgUrl);
        await a.unsafe(`drop database if exists "${name}" with (force)`).finally(() => a.end());
      },
    };
  }
  let image = process.env.ANVIL_TEST_PGLITE_IMAGE;
  if (!image) {
    image = join(mkdtempSync(join(tmpdir(), 'anvil-tpl-')), 'template.tar');
    await writePgliteTemplate(image);
    process.env.ANVIL_TEST_PGLITE_IMAGE = image;
  }
  if (process.env.ANVIL_TEST_REUSE_PGLITE) return reusedPglite(image);
  const database = await openDatabase({ kind: 'pglite-image', image: readPgliteTemplate(image) });
  return { database, drop: () => database.close() };
}

/**
 * In a batch process (scripts/test-batch.ts), the files run one after another on one PGlite engine,
 * emptied between them: every table of the template but the OAuth2 keys (tests/helpers/template.ts) is empty, so TRUNCATE ... RESTART IDENTITY gives
 * the next file the template's state, ids included, for a third of what unpacking a new engine costs.
 * An engine that cannot be emptied (a file left it in a failed transaction) is replaced; an app started
 * while another still runs (a file's second app) gets an engine of its own.
 */
let reusable: { database: Database; empty: string; inUse?: boolean } | undefined;
async function reusedPglite(image: string): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (reusable?.inUse) {
    const own = await openDatabase({ kind: 'pglite-image', image: readPgliteTemplate(image) });
    return { database: own, drop: () => own.close() };
  }
  if (!reusable) {
    const database = await openDatabase({ kind: 'pglite-image', image: readPgliteTemplate(image) });
    const { rows } = await database.pglite!.query<{ t: string }>(`select quote_ident(tablename) as t from pg_tables where schemaname = 'public' and tablename <> 'oauth2_keys'`);
    reusable = { database, empty: `truncate ${rows.map((r) => r.t).join(', ')} restart identity cascade` };
  }
  const engine = reusable;
  engine.inUse = true;
  const { database, empty } = engine;
  return {
    database,
    drop: async () => {
      try {
        await database.pglite!.exec(empty);
        engine.inUse = false;
      } catch {
        reusable = undefined;
        await database.close().catch(() => {});
      }
    },
  };
}

export type Client = ReturnType<typeof createClient<paths>>;

export interface TestUser {
  id: number;
  username: string;
  password: string;
  email: string;
  basic: string;
}

export interface TestApp {
  url: string;
  config: Config;
  services: Services;
  admin: TestUser;
  /** A typed client sending the given Authorization header (none for anonymous). */
  client(authorization?: string): Client;
  /** Creates a user directly through the service layer. */
  user(opts?: { admin?: boolean; restricted?: boolean; visibility?: 'public' | 'limited' | 'private' }): Promise<TestUser>;
  /** Creates a token for `user` (service layer; the token operations have tests of their own); returns `token <value>`. */
  token(user: TestUser, scopes?: string[]): Promise<string>;
  /** Runs SQL on the app's database outside drizzle, as another anvil process would: no in-process cache hears of it. */
  sqlFromElsewhere(statement: string): Promise<void>;
  close(): Promise<void>;
}

export const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/**
 * `workers`: also run the webhook delivery worker, as `make run` does; `actions`: also the Actions trigger
 * worker (pushes → runs), for the files that test Actions; `autoMerge`: the worker that carries out merges
 * scheduled for when the checks succeed; `codeIndex`: the code index worker (#41); `repoStats`: the worker computing languages and licenses after pushes (#38); `pushMirrors`: the worker that pushes sync-on-commit push mirrors (#39); `logLines`: the app's log (the production logger, at `info`) is
 * appended there, one JSON line an entry, for tests of what reaches the log.
 */
export async function startApp(
  env: Record<string, string> = {}, opts: { workers?: boolean; actions?: boolean; autoMerge?: boolean; codeIndex?: boolean; repoStats?: boolean; pushMirrors?: boolean; logLines?: string[] } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'anvil-test-'));
  // ANVIL_TEST_STORAGE=s3: every kind of blob in a local S3-compatible server started for this app.
  const s3 = process.env.ANVIL_TEST_STORAGE === 's3' ? await startS3() : undefined;
  // Node closes idle keep-alive connections after 5 s and fetch (undici) reuses them for up to 4 s,
  // checked on a coarse timer: on a loaded machine a request sent in that gap fails with "other side
  // closed" (undici does not retry a POST). Idle connections here live as long as the test file.
  const server: Server = createServer({ keepAliveTimeout: 10 * 60_000 });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const port = (server.address() as AddressInfo).port;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    ROOT_URL: `http://127.0.0.1:${port}/`,
    ADMIN_USERNAME: adminCredentials.username,
    ADMIN_PASSWORD: adminCredentials.password,
    ADMIN_EMAIL: adminCredentials.email,
    // A cheap password hash keeps user creation and Basic sign-in fast in tests (production: 15).
    PASSWORD_HASH_COST: '10',
    ...(s3?.env ?? {}),
    ...env,
  });
  const logLines = opts.logLines;
  const log = logLines
    ? createLogger('info', 'json', { write: (line: string) => void logLines.push(line) })
    : createLogger(process.env.LOG_LEVEL ?? 'silent');
  const { database, drop } = await openTestDatabase();
  const services = new Services({ db: database.db, config, log, tryLock: database.tryLock, payloads });
  await ensureFirstAdmin(services, config, log);
  const app = await buildApp({ config, services, log, doc: (specDoc ??= loadSpec()) });
  const webhooks = opts.workers ? new HookDeliveryWorker(services.deps) : undefined;
  webhooks?.start();
  const actionTriggers = opts.actions ? new ActionTriggerWorker(services.deps, services.actions) : undefined;
  actionTriggers?.start();
  const autoMerge = opts.autoMerge ? new AutoMergeWorker(services.deps, services.pulls, services.merges, services.access) : undefined;
  autoMerge?.start();
  const codeIndex = opts.codeIndex ? new CodeIndexWorker(services.deps, services.codeIndex) : undefined;
  codeIndex?.start();
  const repoStats = opts.repoStats ? new RepoStatsWorker(services.deps, services.repoStats) : undefined;
  repoStats?.start();
  const pushMirrors = opts.pushMirrors ? new PushMirrorWorker(services.deps, services.pushMirrors) : undefined;
  pushMirrors?.start();
  server.on('request', app.callback());
  const url = `http://127.0.0.1:${port}`;
  const rootRow = (await services.users.byName(adminCredentials.username))!;
  const admin: TestUser = { id: rootRow.id, ...adminCredentials, basic: basic(adminCredentials.username, adminCredentials.password) };
  let n = 0;

  const client = (authorization?: string) =>
    createClient<paths>({ baseUrl: `${url}/api/v1`, headers: authorization ? { Authorization: authorization } : {} });

  return {
    url,
    config,
    services,
    admin,
    client,
    async user(opts = {}) {
      const username = `u${n++}-${randomBytes(3).toString('hex')}`;
      const password = `pw-${randomBytes(6).toString('hex')}`;
      const email = `${username}@example.com`;
      const row = await services.users.create({
        username, email, password, isAdmin: opts.admin, restricted: opts.restricted, visibility: opts.visibility,
        mustChangePassword: false,
      });
      return { id: row.id, username, password, email, basic: basic(username, password) };
    },
    async token(user, scopes = ['all']) {
      const { row: _row, token } = await services.tokens.create(user.id, `t-${randomBytes(4).toString('hex')}`, scopes);
      return `token ${token}`;
    },
    async sqlFromElsewhere(statement) {
      if (database.pglite) await database.pglite.exec(statement);
      else await (database.db as unknown as { $client: { unsafe(q: string): Promise<unknown> } }).$client.unsafe(statement);
    },
    async close() {
      await webhooks?.stop();
      await actionTriggers?.stop();
      await autoMerge?.stop();
      await codeIndex?.stop();
      await repoStats?.stop();
      await pushMirrors?.stop();
      await services.migrations.drain();
      server.closeAllConnections();
      await new Promise<void>((res) => server.close(() => res()));
      await services.close();
      await drop();
      await s3?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
