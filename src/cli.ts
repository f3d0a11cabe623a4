// Admin commands for when the server is not running:
//   npm run cli -- admin user create --username U --password P --email E [--admin] [--must-change-password]
//   npm run cli -- admin badge create --slug SLUG [--description TEXT] [--image-url URL]
//   npm run cli -- admin cron list
//   npm run cli -- admin cron run TASK
//   npm run cli -- migrate
//   npm run cli -- runner [--instance URL] [--token REGISTRATION_TOKEN] [--name NAME] [--labels a,b] [--dir DIR]
// With PGlite only one process may open the data folder: while the server runs this stops with a
// message saying so (db/lock.ts), instead of hanging.
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { openDatabase, pgliteDir } from './db/client.js';
import { DataDirBusy, lockDataDir } from './db/lock.js';
import { createLogger } from './log.js';
import { DomainError } from './services/errors.js';
import { Services } from './services/index.js';
import { payloads } from './present/payloads.js';

const usage = `usage:
  anvil admin user create --username NAME --password PASSWORD --email EMAIL [--admin] [--must-change-password]
  anvil admin badge create --slug SLUG [--description TEXT] [--image-url URL]
  anvil admin cron list
  anvil admin cron run TASK
  anvil migrate
  anvil runner [--instance URL] [--token REGISTRATION_TOKEN] [--name NAME] [--labels a,b] [--dir DIR]`;

async function withServices<T>(fn: (services: Services) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const log = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir, 'the anvil command line');
  try {
    const database = await openDatabase(
      config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite-dir', dir: pgliteDir(config.dataDir) },
    );
    try {
      await database.migrate();
      return await fn(new Services({ db: database.db, config, log, tryLock: database.tryLock, payloads }));
    } finally {
      await database.close();
    }
  } finally {
    unlock();
  }
}

async function main(argv: string[]): Promise<number> {
  const [a, b, c, ...rest] = argv;
  if (a === 'runner') {
    // The built-in runner: a client of a running server over the runner protocol; it opens no database.
    const { values } = parseArgs({
      args: argv.slice(1),
      options: { instance: { type: 'string' }, token: { type: 'string' }, name: { type: 'string' }, labels: { type: 'string' }, dir: { type: 'string' } },
    });
    const { runner } = loadConfig();
    const { startRunner } = await import('./runner/daemon.js');
    const started = await startRunner({
      instance: values.instance ?? runner.instance,
      registrationToken: values.token ?? process.env.RUNNER_TOKEN,
      name: values.name ?? runner.name,
      labels: values.labels ? values.labels.split(',').map((l) => l.trim()).filter(Boolean) : runner.labels,
      dir: values.dir ?? runner.dir,
      fetchIntervalMs: runner.fetchIntervalMs,
      log: (m) => console.log(`${new Date().toISOString()} ${m}`),
    });
    await new Promise<void>((res) => {
      process.once('SIGINT', res);
      process.once('SIGTERM', res);
    });
    await started.stop();
    return 0;
  }
  if (a === 'migrate') {
    await withServices(async () => undefined);
    console.log('migrations applied');
    return 0;
  }
  if (a === 'admin' && b === 'cron' && c === 'list' && rest.length === 0) {
    const tasks = await withServices((s) => s.cron.list());
    for (const t of tasks) console.log(`${t.name.padEnd(36)} ${t.schedule.padEnd(12)} runs ${t.execTimes}${t.next ? `, next ${t.next.toISOString()}` : ''}`);
    return 0;
  }
  if (a === 'admin' && b === 'cron' && c === 'run' && rest.length === 1) {
    // The same run as POST /admin/cron/{task}: the cluster-wide lock, the record, the result.
    const outcome = await withServices((s) => s.cron.run(rest[0]!));
    if (!outcome.ran) {
      console.log(`${rest[0]} is running elsewhere: this run was skipped`);
      return 1;
    }
    console.log(`${rest[0]} ${outcome.status === 'ok' ? 'finished' : 'failed'} in ${outcome.durationMs} ms: ${outcome.message}`);
    return outcome.status === 'ok' ? 0 : 1;
  }
  if (a === 'admin' && b === 'badge' && c === 'create') {
    // A badge site administrators may then give users (POST /admin/users/{username}/badges).
    const { values } = parseArgs({ args: rest, options: { slug: { type: 'string' }, description: { type: 'string' }, 'image-url': { type: 'string' } } });
    if (!values.slug) {
      console.error(usage);
      return 2;
    }
    const badge = await withServices((s) => s.badges.create({ slug: values.slug!, description: values.description, imageUrl: values['image-url'] }));
    console.log(`created badge "${badge.slug}" (id ${badge.id})`);
    return 0;
  }
  if (a === 'admin' && b === 'user' && c === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: {
        username: { type: 'string' },
        password: { type: 'string' },
        email: { type: 'string' },
        admin: { type: 'boolean', default: false },
        'must-change-password': { type: 'boolean', default: false },
      },
    });
    if (!values.username || !values.password || !values.email) {
      console.error(usage);
      return 2;
    }
    const user = await withServices((s) =>
      s.users.create({
        username: values.username!,
        password: values.password!,
        email: values.email!,
        isAdmin: values.admin,
        mustChangePassword: values['must-change-password'],
      }),
    );
    console.log(`created ${user.isAdmin ? 'site administrator' : 'user'} "${user.name}" (id ${user.id})`);
    return 0;
  }
  console.error(usage);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof DataDirBusy || err instanceof DomainError) {
      console.error(`anvil: ${err.message}`);
      process.exit(1);
    }
    console.error(err);
    process.exit(1);
  },
);
