// `make fuzz` / `npm run fuzz -- [options]`: spec-driven, stateful fuzzing of a running server (BASE_URL),
// or of an anvil started here on a temporary DATA_DIR when BASE_URL is unset. See docs/fuzzing.md.
// Exit status: 0 no findings, 1 findings, 2 a usage or start-up error.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { loadSpec, specPath } from '../src/api/spec.js';
import { fromRoot } from '../src/paths.js';
import { readExpected } from './compare.js';
import { Fuzzer, type Credential, type Target } from './engine.js';
import { buildModel } from './model.js';
import { formatReport, type Format } from './report.js';

const usage = `usage: npm run fuzz -- [options]   (or make fuzz FUZZ_ARGS='...')
  target     BASE_URL (e.g. http://127.0.0.1:3000); unset: an anvil started here on a temporary DATA_DIR
  sign-in    FUZZ_TOKEN, or FUZZ_USER and FUZZ_PASSWORD (a site administrator); FUZZ_OUTSIDER_TOKEN (a user
             with no access to what the administrator creates) adds the outsider caller
  --spec FILE            the OpenAPI document (default spec/openapi.yaml)
  --ops REGEXP           operations whose operationId matches
  --tag TAG              operations with this tag (repeatable)
  --skip REGEXP          leave out operations whose operationId matches
  --runs N               runs per operation and per chain (default 100)
  --budget SECONDS       time for the whole run (default 300); shared among operations and chains
  --seed N               the seed (printed by every run; with --ops replays a finding)
  --read-only            GET requests only, no chains: safe against production
  --format text|json|junit   the report's format (default text); --out FILE writes it there
  --compare URL2         send the same requests to a second server and report where answers differ
                         (COMPARE_TOKEN or COMPARE_USER/COMPARE_PASSWORD, COMPARE_OUTSIDER_TOKEN sign in there)
  --expected FILE        differences to ignore with --compare: lines of '<operationId regexp> <difference regexp>'
  --shrink-seconds N     time to shrink each failure (default 30)
  --timeout-seconds N    a request with no answer after this long is a finding (default 30)`;

function fail(message: string): never {
  process.stderr.write(`fuzz: ${message}\n`);
  process.exit(2);
}

let args: ReturnType<typeof parseOptions>;
function parseOptions() {
  return parseArgs({
    allowPositionals: false,
    options: {
      spec: { type: 'string' },
      ops: { type: 'string' },
      tag: { type: 'string', multiple: true },
      skip: { type: 'string' },
      runs: { type: 'string' },
      budget: { type: 'string' },
      seed: { type: 'string' },
      'read-only': { type: 'boolean' },
      format: { type: 'string' },
      out: { type: 'string' },
      compare: { type: 'string' },
      expected: { type: 'string' },
      'shrink-seconds': { type: 'string' },
      'timeout-seconds': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
}
try {
  args = parseOptions();
} catch (err) {
  fail(`${(err as Error).message}\n${usage}`);
}
if (args.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}

const number = (name: string, raw: string | undefined, dflt: number) => {
  if (raw === undefined) return dflt;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) fail(`--${name} must be a number, got ${raw}`);
  return n;
};
const regexp = (name: string, raw: string | undefined) => {
  if (raw === undefined) return undefined;
  try {
    return new RegExp(raw);
  } catch (err) {
    return fail(`--${name}: ${(err as Error).message}`);
  }
};
const format = (args.format ?? 'text') as Format;
if (!['text', 'json', 'junit'].includes(format)) fail(`--format must be text, json or junit, got ${args.format}`);
const seed = number('seed', args.seed, Math.floor(Math.random() * 2 ** 31));
const ops = regexp('ops', args.ops);
const skip = regexp('skip', args.skip);
const log = (line: string) => process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------- credentials

const basicShown = (user: string, password: string) => `Basic $(printf %s "$${user}:$${password}" | base64 -w0)`;

/** Signs in with a token, or a user and password (turned into a token here, as passwords are slow to check). */
async function signIn(base: string, env: { token?: string; user?: string; password?: string }, names: { token: string; user: string; password: string }): Promise<{ credential?: Credential; cleanup?: () => Promise<void> }> {
  if (env.token) return { credential: { header: 'Authorization', value: `token ${env.token}`, shown: `token $${names.token}` } };
  if (!env.user || env.password === undefined) return {};
  const basic = `Basic ${Buffer.from(`${env.user}:${env.password}`).toString('base64')}`;
  const shown = basicShown(names.user, names.password);
  try {
    const res = await fetch(`${base}/users/${encodeURIComponent(env.user)}/tokens`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `fuzz-${randomBytes(4).toString('hex')}`, scopes: ['all'] }),
    });
    const token = (await res.json().catch(() => ({}))) as { id?: number; sha1?: string };
    if (res.status === 201 && token.sha1) {
      return {
        // Requests go with the token; printed commands show the user and password the caller gave.
        credential: { header: 'Authorization', value: `token ${token.sha1}`, shown },
        cleanup: async () => {
          await fetch(`${base}/users/${encodeURIComponent(env.user!)}/tokens/${token.id}`, { method: 'DELETE', headers: { Authorization: basic } }).catch(() => undefined);
        },
      };
    }
  } catch {
    // no token endpoint: Basic it is
  }
  return { credential: { header: 'Authorization', value: basic, shown } };
}

// ---------------------------------------------------------------- an anvil of our own

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    }).once('error', reject);
  });
}

async function startAnvil(): Promise<{ url: string; user: string; password: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'anvil-fuzz-'));
  const port = await freePort();
  const password = randomBytes(12).toString('base64url');
  const env: NodeJS.ProcessEnv = {
    ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ROOT_URL: `http://127.0.0.1:${port}/`,
    ADMIN_USERNAME: 'fuzz-admin', ADMIN_PASSWORD: password, ADMIN_EMAIL: 'fuzz-admin@example.com', LOG_LEVEL: 'warn', SSH_ENABLED: 'false',
  };
  delete env.DATABASE_URL;
  const bundle = fromRoot('dist', 'main.js');
  const argv = existsSync(bundle) ? [bundle] : ['--import', 'tsx', fromRoot('src', 'main.ts')];
  const child: ChildProcess = spawn(process.execPath, argv, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`${url}/api/v1/version`).then((r) => r.ok, () => false);
    if (ok) return { url, user: 'fuzz-admin', password, stop };
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  return fail(`the anvil started on ${dataDir} did not answer`);
}

/** An outsider on our own anvil: a plain user, made by the administrator, with a token. */
async function makeOutsider(base: string, admin: Credential): Promise<Credential | undefined> {
  const username = `outsider-${randomBytes(3).toString('hex')}`;
  const password = randomBytes(12).toString('base64url');
  const made = await fetch(`${base}/admin/users`, {
    method: 'POST',
    headers: { [admin.header]: admin.value, 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password, must_change_password: false }),
  });
  if (made.status !== 201) return undefined;
  const { credential } = await signIn(base, { user: username, password }, { token: 'FUZZ_OUTSIDER_TOKEN', user: 'FUZZ_OUTSIDER_USER', password: 'FUZZ_OUTSIDER_PASSWORD' });
  return credential && { ...credential, shown: credential.value.startsWith('token ') ? 'token $FUZZ_OUTSIDER_TOKEN' : credential.shown };
}

// ---------------------------------------------------------------- the run

const specFile = args.spec ?? specPath;
let doc;
try {
  doc = args.spec ? parse(readFileSync(specFile, 'utf8')) : loadSpec();
} catch (err) {
  fail(`cannot read the spec ${specFile}: ${(err as Error).message}`);
}
const model = buildModel(doc);
const tags = args.tag ?? [];
const picked = model.operations.filter((op) => (!ops || ops.test(op.operationId)) && (!tags.length || op.tags.some((t) => tags.includes(t))) && !skip?.test(op.operationId));
if (!picked.length) fail('no operation picked (see --ops, --tag, --skip)');

const cleanups: Array<() => Promise<void>> = [];
const apiBase = (url: string) => {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith(model.prefix) ? trimmed : `${trimmed}${model.prefix}`;
};
let baseUrl = process.env.BASE_URL;
let env = { token: process.env.FUZZ_TOKEN, user: process.env.FUZZ_USER, password: process.env.FUZZ_PASSWORD };
let ownAnvil = false;
if (!baseUrl) {
  if (args.spec) fail('BASE_URL is required with --spec (an anvil is started only for its own spec)');
  log('fuzz: BASE_URL is not set: starting an anvil on a temporary DATA_DIR');
  const anvil = await startAnvil();
  cleanups.push(anvil.stop);
  baseUrl = anvil.url;
  env = { token: undefined, user: anvil.user, password: anvil.password };
  ownAnvil = true;
}
const a = apiBase(baseUrl);
const signedIn = await signIn(a, env, { token: 'FUZZ_TOKEN', user: 'FUZZ_USER', password: 'FUZZ_PASSWORD' });
if (signedIn.cleanup) cleanups.push(signedIn.cleanup);
const target: Target = { label: 'A', base: a, ...(signedIn.credential ? { admin: signedIn.credential } : {}) };
if (process.env.FUZZ_OUTSIDER_TOKEN) target.outsider = { header: 'Authorization', value: `token ${process.env.FUZZ_OUTSIDER_TOKEN}`, shown: 'token $FUZZ_OUTSIDER_TOKEN' };
else if (ownAnvil && target.admin) {
  const outsider = await makeOutsider(a, target.admin);
  if (outsider) target.outsider = outsider;
}
if (!target.admin) log('fuzz: no credentials (FUZZ_TOKEN or FUZZ_USER/FUZZ_PASSWORD): every request is anonymous');

let targets: [Target] | [Target, Target] = [target];
if (args.compare) {
  const b = apiBase(args.compare);
  const other = await signIn(b, { token: process.env.COMPARE_TOKEN, user: process.env.COMPARE_USER, password: process.env.COMPARE_PASSWORD }, { token: 'COMPARE_TOKEN', user: 'COMPARE_USER', password: 'COMPARE_PASSWORD' });
  if (other.cleanup) cleanups.push(other.cleanup);
  const second: Target = { label: 'B', base: b, ...(other.credential ? { admin: other.credential } : {}) };
  if (process.env.COMPARE_OUTSIDER_TOKEN) second.outsider = { header: 'Authorization', value: `token ${process.env.COMPARE_OUTSIDER_TOKEN}`, shown: 'token $COMPARE_OUTSIDER_TOKEN' };
  targets = [target, second];
}

const passOn = [
  ...(args.spec ? ['--spec', args.spec] : []),
  ...(args.compare ? ['--compare', args.compare] : []),
  ...(args.expected ? ['--expected', args.expected] : []),
  ...(args['read-only'] ? ['--read-only'] : []),
  ...(args.runs ? ['--runs', args.runs] : []),
];
const shellQuote = (s: string) => (/^[\w./:@^$-]+$/.test(s) && !s.includes('$') ? s : `'${s.replace(/'/g, `'\\''`)}'`);
log(`fuzz: ${picked.length} operations, ${model.chains.length} chains in the spec, seed ${seed}, against ${targets.map((t) => t.base).join(' and ')}`);
const fuzzer = new Fuzzer({
  model,
  targets,
  operations: picked,
  runs: number('runs', args.runs, 100),
  budgetMs: number('budget', args.budget, 300) * 1000,
  seed,
  readOnly: !!args['read-only'],
  shrinkMs: number('shrink-seconds', args['shrink-seconds'], 30) * 1000,
  timeoutMs: number('timeout-seconds', args['timeout-seconds'], 30) * 1000,
  expected: args.expected ? readExpected(args.expected) : [],
  replay: (operationId, s) => ['npm run fuzz --', '--seed', String(s), '--ops', shellQuote(`^${operationId}$`), ...passOn.map(shellQuote)].join(' '),
  log,
});
let report;
try {
  report = await fuzzer.run();
} finally {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
}
const text = formatReport(report, format);
if (args.out) {
  writeFileSync(args.out, text);
  log(`fuzz: ${report.findings.length} finding(s); report written to ${args.out}`);
} else process.stdout.write(text);
process.exit(report.findings.length ? 1 : 0);
