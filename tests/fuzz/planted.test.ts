// `make fuzz` against a small server that breaks its own spec in known ways (tests/helpers/brokenServer.ts):
// each planted defect is found, shrunk, and printed as curl commands that, run again, show it again; the
// seed replays it too; two servers differing in one member are told apart (unless that difference is
// expected); the healthy server yields no finding at all.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Fuzzer, type Finding, type Report } from '../../fuzz/engine.js';
import { buildModel } from '../../fuzz/model.js';
import { fromRoot } from '../../src/paths.js';
import { brokenSpec, startBrokenServer, tokens, type Defect } from '../helpers/brokenServer.js';

const dir = mkdtempSync(join(tmpdir(), 'fuzz-planted-'));
const specFile = join(dir, 'things.json');
writeFileSync(specFile, JSON.stringify(brokenSpec));
const env = { ...process.env, FUZZ_TOKEN: tokens.admin, FUZZ_OUTSIDER_TOKEN: tokens.outsider, COMPARE_TOKEN: tokens.admin, COMPARE_OUTSIDER_TOKEN: tokens.outsider };
const servers: Array<{ close: () => Promise<void> }> = [];
let files = 0;

interface Run { report: Report; code: number; stderr: string; url: string }

/** Runs the fuzz CLI (as `make fuzz` does) against a server with `defects`; its JSON report. */
async function fuzz(defects: Defect[], args: string[] = [], compareWith?: Defect[]): Promise<Run> {
  const server = await startBrokenServer(defects);
  servers.push(server);
  const extra: string[] = [];
  if (compareWith) {
    const other = await startBrokenServer(compareWith);
    servers.push(other);
    extra.push('--compare', other.url);
  }
  const out = join(dir, `report-${files++}.json`);
  const argv = ['--import', 'tsx', fromRoot('fuzz', 'cli.ts'), '--spec', specFile, '--format', 'json', '--out', out,
    '--seed', '7', '--runs', '60', '--budget', '120', '--shrink-seconds', '5', ...extra, ...args];
  const child = spawn(process.execPath, argv, { env: { ...env, BASE_URL: server.url }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number>((r) => child.once('exit', (c) => r(c ?? -1)));
  let report: Report;
  try {
    report = JSON.parse(readFileSync(out, 'utf8')) as Report;
  } catch {
    throw new Error(`the fuzz CLI wrote no report (exit ${code}):\n${stderr}`);
  }
  return { report, code, stderr, url: server.url };
}

/** Runs a finding's printed curl commands in a shell (tokens from the variables they name); the last status and body. */
async function replay(f: Finding): Promise<{ status: number; body: string }> {
  const script = f.steps.map((s) => s.curl).join('\n');
  const child = spawn('bash', ['-c', script], { env: { PATH: process.env.PATH, FUZZ_TOKEN: tokens.admin, FUZZ_OUTSIDER_TOKEN: tokens.outsider }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await new Promise((r) => child.once('exit', r));
  const lines = out.trimEnd().split('\n');
  return { status: Number(lines.at(-1)), body: lines.at(-2) ?? '' };
}

function finding(run: Run, pattern: RegExp): Finding {
  const f = run.report.findings.find((x) => pattern.test(x.problem));
  assert.ok(f, `no finding matches ${pattern}; findings:\n${run.report.findings.map((x) => x.problem).join('\n')}\n${run.stderr}`);
  return f!;
}

// Started together (each CLI its own process), awaited by the tests below.
const runs = {
  // No deletes here: the private thing the chain made must still be there when its curl commands replay.
  planted: fuzz(['crash', 'undeclared-status', 'missing-field', 'accepts-invalid', 'leaky'], ['--skip', '^deleteThing$']),
  unreadable: fuzz(['unreadable']),
  undead: fuzz(['undead'], ['--tag', 'things']),
  lostUpdate: fuzz(['lost-update'], ['--tag', 'things']),
  healthy: fuzz([]),
  // The ids of listed things (/0/id) are expected to differ; those of one thing (/id) are not.
  compared: (async () => {
    writeFileSync(join(dir, 'expected.txt'), '# listed ids are strings on the other server\nlistThings  ^body /0/id: number vs string$\n');
    return fuzz([], ['--tag', 'things', '--expected', join(dir, 'expected.txt')], ['id-as-string']);
  })(),
};

test.after(async () => {
  await Promise.allSettled(Object.values(runs));
  for (const s of servers) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a healthy server: no finding, every operation and the chain exercised, response times recorded', async () => {
  const run = await runs.healthy;
  assert.equal(run.report.findings.map((f) => f.problem), [], run.stderr);
  assert.is(run.code, 0);
  for (const op of run.report.operations) {
    assert.ok(Object.keys(op.statuses).some((s) => s.startsWith('2')), `${op.operationId} never succeeded: ${JSON.stringify(op.statuses)}`);
    assert.ok(op.ms.max > 0, `${op.operationId}: no response time`);
  }
  const chain = run.report.chains.find((c) => c.producer === 'createThing');
  assert.ok(chain && chain.created > 0, JSON.stringify(run.report.chains));
  assert.equal(chain!.laws, ['created is readable', 'created is listed', 'private is hidden from anonymous and outsider', 'update is visible', 'deleted is 404']);
});

test('a 500 on one input: found, shrunk to the smallest such input, replayed by its curl command and by its seed', async () => {
  const run = await runs.planted;
  assert.is(run.code, 1);
  const f = finding(run, /^echo: answered 500/);
  assert.is(f.steps.length, 1);
  assert.match(f.steps[0]!.url, /[?&]n=1001$/); // the least n above 1000
  assert.match(f.steps[0]!.curl, /^curl .*'http:\/\/127\.0\.0\.1:\d+\/api\/echo\?n=1001'/);
  assert.is((await replay(f)).status, 500);
  // The command that replays it by its seed names the seed and the operation.
  assert.match(f.replay, /--seed 7 --ops '\^echo\$'/);
});

test('an undeclared status: found, shrunk to a 3-character q, replayed', async () => {
  const f = finding(await runs.planted, /^listThings: answered 418, which the spec does not declare/);
  const q = new URL(f.steps.at(-1)!.url).searchParams.get('q')!;
  assert.is([...q].length, 3);
  assert.is((await replay(f)).status, 418);
});

test('a body missing a required member: found, replayed', async () => {
  const f = finding(await runs.planted, /^getStatus: the 200 body does not match its schema: .*version/);
  const again = await replay(f);
  assert.is(again.status, 200);
  assert.not.match(again.body, /version/);
});

test('an invalid request accepted: found (a bad name), replayed', async () => {
  const f = finding(await runs.planted, /^createThing: accepted an invalid request with 201/);
  assert.is((await replay(f)).status, 201);
});

test('a private object readable anonymously: found by the chain, replayed, and the token is never printed', async () => {
  const run = await runs.planted;
  const f = finding(run, /a private object createThing created is visible to (an anonymous caller|an outsider)/);
  assert.is(f.kind, 'law');
  assert.is(f.steps[0]!.operationId, 'createThing');
  assert.match(f.steps[0]!.curl, /"token \$FUZZ_TOKEN"/);
  assert.is((await replay(f)).status, 200);
  const printed = JSON.stringify(run.report);
  assert.not.ok(printed.includes(tokens.admin) || printed.includes(tokens.outsider), 'a token was printed');
});

test('a created object that cannot be read back: found (create, then read), replayed', async () => {
  const f = finding(await runs.unreadable, /what createThing created .* cannot be read back: getThing answered 404/);
  assert.equal(f.steps.map((s) => s.operationId), ['createThing', 'getThing']);
  assert.is((await replay(f)).status, 404);
});

test('a deleted object still readable: found (delete, then read), replayed', async () => {
  const f = finding(await runs.undead, /after deleteThing answered 204, getThing still answers 200/);
  assert.equal(f.steps.slice(-2).map((s) => s.operationId), ['deleteThing', 'getThing']);
  assert.is((await replay(f)).status, 200);
});

test('an update that is lost: found (update, then read)', async () => {
  const f = finding(await runs.lostUpdate, /editThing answered 200, but a read afterwards shows otherwise/);
  assert.equal(f.steps.slice(-2).map((s) => s.operationId), ['editThing', 'getThing']);
});

test('two servers differing in one member: the difference is reported member by member; an expected difference is not', async () => {
  const run = await runs.compared;
  const f = finding(run, /the servers answer differently:\n\s+body \/id: number vs string/);
  assert.is(f.kind, 'difference');
  assert.ok(f.steps.some((s) => s.target === 'B'));
  assert.not.ok(run.report.findings.some((x) => x.problem.includes('/0/id')), run.report.findings.map((x) => x.problem).join('\n'));
});

test('read-only: GET requests only, no chains', async () => {
  const server = await startBrokenServer([]);
  servers.push(server);
  const model = buildModel(brokenSpec);
  const fuzzer = new Fuzzer({
    model, targets: [{ label: 'A', base: `${server.url}/api`, admin: { header: 'Authorization', value: `token ${tokens.admin}`, shown: 'token $FUZZ_TOKEN' } }],
    operations: model.operations, runs: 10, budgetMs: 5000, seed: 1, readOnly: true, shrinkMs: 1000, timeoutMs: 5000, expected: [],
    replay: () => '', log: () => undefined,
  });
  const report = await fuzzer.run();
  assert.equal(report.findings, []);
  assert.equal(report.chains, []);
  assert.equal(report.operations.map((o) => o.method), ['GET', 'GET', 'GET', 'GET']);
  assert.ok(report.operations.every((o) => Object.keys(o.statuses).length === 0 || o.runs > 0));
});

test.run();
