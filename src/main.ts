// config → database → migrations → first admin → app → listen; graceful shutdown on SIGTERM/SIGINT.
import type { Server } from 'node:http';
import { buildApp, InFlight } from './app.js';
import { loadSpec } from './api/spec.js';
import { loadConfig } from './config.js';
import { openDatabase, pgliteDir } from './db/client.js';
import { lockDataDir } from './db/lock.js';
import { createLogger } from './log.js';
import { ensureFirstAdmin } from './services/users/bootstrap.js';
import { HookDeliveryWorker } from './jobs/hookDelivery.js';
import { ActionTriggerWorker } from './jobs/actionTriggers.js';
import { AutoMergeWorker } from './jobs/autoMerge.js';
import { LeftoversWorker } from './jobs/leftovers.js';
import { CodeIndexWorker } from './jobs/codeIndex.js';
import { RepoStatsWorker } from './jobs/repoStats.js';
import { PushMirrorWorker } from './jobs/pushMirrors.js';
import { CronScheduler } from './jobs/scheduler.js';
import { Services } from './services/index.js';
import { payloads } from './present/payloads.js';
import { startSshServer } from './transport/ssh.js';

const config = loadConfig();
const log = createLogger(config.logLevel, config.logFormat);

async function start() {
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir, 'the anvil server');
  // The request validator (api/router.ts builds it on first use, cached by the document) is built while
  // PGlite opens: its WebAssembly compiles on other threads, and the first requests after listening do
  // not wait for it (#41).
  const doc = loadSpec();
  import('./api/validate.js').then((m) => m.createValidator(doc)).catch(() => undefined);
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite-dir', dir: pgliteDir(config.dataDir) },
  );
  const services = new Services({ db: database.db, config, log, tryLock: database.tryLock, payloads });
  // SIGNING_KEY: a key file that cannot be read or used stops the start, rather than the first commit.
  const signing = await services.commitSigning.describe();
  if (signing) log.info(signing, 'commits anvil writes are signed with SIGNING_KEY');
  // Under the migration lock: processes started together on an empty database create one administrator.
  await database.migrate(() => ensureFirstAdmin(services, config, log));
  // The Actions secrets key: generated into DATA_DIR on first start when SECRET_KEY is unset; after a
  // rotation (SECRET_KEY_PREVIOUS set) secrets still under the old key are re-encrypted under the new one.
  await services.actionSettings.keys();
  if (config.secretKeyPrevious) log.info(await services.actionSettings.reencryptSecrets(), 'Actions secrets re-encrypted under SECRET_KEY');
  // TOTP secrets: after a rotation, and the plain ones written before they were encrypted.
  log.info(await services.twoFactor.reencrypt(), 'TOTP secrets sealed under SECRET_KEY');
  // Half-done work of dead processes (pushes git performed but nobody recorded, repository folders of
  // interrupted creates and deletes, migration tasks), taken over now and every few seconds as leases lapse.
  const leftovers = new LeftoversWorker(services.deps, services.gitTransport, services.repos, services.migrations);
  const webhooks = new HookDeliveryWorker(services.deps);
  const actionTriggers = new ActionTriggerWorker(services.deps, services.actions);
  const autoMerge = new AutoMergeWorker(services.deps, services.pulls, services.merges, services.access);
  const codeIndex = new CodeIndexWorker(services.deps, services.codeIndex);
  const repoStats = new RepoStatsWorker(services.deps, services.repoStats);
  const pushMirrors = new PushMirrorWorker(services.deps, services.pushMirrors);
  const inFlight = new InFlight();
  const app = await buildApp({ config, services, log, inFlight, doc });
  const server: Server = app.listen(config.port, config.host);
  await new Promise<void>((res, rej) => server.once('listening', res).once('error', rej));
  log.info({ port: config.port, rootUrl: config.rootUrl, database: database.engine }, 'anvil is listening');
  // The workers' first rounds run a second after the server listens: on PGlite every query runs on the
  // main thread, and the first rounds (cold catalog caches, seven workers' claims) held back the first
  // requests by hundreds of milliseconds (#41).
  const workersStart = setTimeout(() => {
    leftovers.start();
    if (config.webhook.deliveryEnabled) webhooks.start();
    if (config.actions.enabled && config.actions.workerEnabled) actionTriggers.start();
    autoMerge.start();
    codeIndex.start();
    repoStats.start();
    pushMirrors.start();
  }, 1000);
  const ssh = config.ssh.enabled ? await startSshServer(services, config, log) : undefined;
  if (ssh) log.info({ port: ssh.port }, 'git over ssh is listening');
  // RUNNER_BUILTIN=true: this process also runs the built-in runner, a client of the server like any
  // act_runner (it speaks to it over HTTP), registered with the site's registration token.
  const builtinRunner = config.runner.builtin && config.actions.enabled
    ? await (await import('./runner/daemon.js')).startRunner({
      instance: config.runner.instance, dir: config.runner.dir, name: config.runner.name, labels: config.runner.labels,
      fetchIntervalMs: config.runner.fetchIntervalMs, registrationToken: await services.runners.registrationToken(),
      log: (m) => log.info({ runner: config.runner.name }, m),
    })
    : undefined;
  const scheduler = new CronScheduler(services.cron, log);
  if (config.cron.enabled) scheduler.start();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, inFlight: inFlight.active }, 'shutting down: no new connections, finishing requests');
    // From now on answers say `Connection: close`: a keep-alive client's next request goes elsewhere.
    inFlight.draining = true;
    const closed = new Promise<void>((res) => server.close(() => res()));
    server.closeIdleConnections();
    // Requests in flight get time to finish; a stuck one does not hold the process forever.
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    await Promise.all([closed, ssh?.close(), builtinRunner?.stop()]);
    clearTimeout(force);
    // A connection can be gone while its request still runs (the client hung up, or was cut off above):
    // the database stays open until the last handler is done with it.
    if (!(await inFlight.idle(5_000))) log.warn({ inFlight: inFlight.active }, 'closing the database under requests still running');
    clearTimeout(workersStart);
    await scheduler.stop();
    await webhooks.stop();
    await actionTriggers.stop();
    await autoMerge.stop();
    await codeIndex.stop();
    await repoStats.stop();
    await pushMirrors.stop();
    await leftovers.stop();
    // Migrations running here get a while to finish; one cut off is failed by another process once its lease lapses.
    await Promise.race([services.migrations.drain(), new Promise((r) => setTimeout(r, 10_000))]);
    await services.close();
    await database.close();
    unlock();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

start().catch((err) => {
  log.fatal({ err: { message: err.message, stack: err.stack } }, 'anvil could not start');
  process.exit(1);
});
