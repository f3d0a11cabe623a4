// A short `make fuzz` against anvil itself (started here, on the test database), as CI runs it: the
// repository, organization and label operations with their create → read → list → update → delete
// chains. It must find nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Report } from '../../fuzz/engine.js';
import { fromRoot } from '../../src/paths.js';
import { adminCredentials, startApp, type TestApp } from '../helpers/harness.js';

let app: TestApp;
const dir = mkdtempSync(join(tmpdir(), 'fuzz-anvil-'));
test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the fuzz CLI against the test's anvil, or (`own`) without BASE_URL: against an anvil the CLI starts itself. */
async function fuzz(args: string[], own = false): Promise<{ report: Report; stderr: string; code: number }> {
  const out = join(dir, `report-${Date.now()}.json`);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (own) {
    for (const k of ['BASE_URL', 'FUZZ_TOKEN', 'FUZZ_USER', 'FUZZ_PASSWORD', 'FUZZ_OUTSIDER_TOKEN']) delete env[k];
  } else {
    const outsider = (await app.token(await app.user(), ['all'])).replace(/^token /, '');
    Object.assign(env, { BASE_URL: app.url, FUZZ_USER: adminCredentials.username, FUZZ_PASSWORD: adminCredentials.password, FUZZ_OUTSIDER_TOKEN: outsider });
  }
  const child = spawn(process.execPath, ['--import', 'tsx', fromRoot('fuzz', 'cli.ts'), '--format', 'json', '--out', out, '--shrink-seconds', '10', ...args], {
    env, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number>((r) => child.once('exit', (c) => r(c ?? -1)));
  try {
    return { report: JSON.parse(readFileSync(out, 'utf8')) as Report, stderr, code };
  } catch {
    throw new Error(`the fuzz CLI wrote no report (exit ${code}):\n${stderr}`);
  }
}

const describe = (r: Report) => r.findings.map((f) => `${f.problem}\n  ${f.steps.map((s) => s.curl).join('\n  ')}\n  → ${f.steps.at(-1)?.status} ${f.steps.at(-1)?.body}`).join('\n\n');

test('make fuzz against anvil: repositories, organizations and labels, with their chains, find nothing', async () => {
  const ops = '^(createCurrentUserRepo|repoGet|repoEdit|repoDelete|userCurrentListRepos|orgCreate|orgGet|orgEdit|orgDelete|orgGetAll|issueCreateLabel|issueGetLabel|issueEditLabel|issueDeleteLabel|issueListLabels)$';
  const { report, stderr } = await fuzz(['--ops', ops, '--runs', '15', '--budget', '30']);
  assert.equal(report.findings.length, 0, `${describe(report)}\n${stderr}`);
  // The chains ran and created things (a run that never reached a success path would prove nothing).
  for (const producer of ['createCurrentUserRepo', 'orgCreate', 'issueCreateLabel']) {
    const chain = report.chains.find((c) => c.producer === producer);
    assert.ok(chain && chain.created > 0, `${producer}: chain not exercised: ${JSON.stringify(report.chains)}`);
  }
});

test('make fuzz without BASE_URL: it starts an anvil of its own on a temporary DATA_DIR, signs in as its administrator, and stops it', async () => {
  const { report, stderr, code } = await fuzz(['--ops', '^(getVersion|getGeneralAPISettings|orgGetAll)$', '--read-only', '--runs', '5', '--budget', '10'], true);
  assert.equal(report.findings.length, 0, `${describe(report)}\n${stderr}`);
  assert.is(code, 0, stderr);
  assert.match(stderr, /BASE_URL is not set: starting an anvil on a temporary DATA_DIR/);
  const [target] = report.targets;
  assert.match(target!, /^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
  assert.not.ok(target!.startsWith(app.url), 'the test\'s own anvil was used');
  for (const op of report.operations) assert.ok(op.runs > 0 && Object.keys(op.statuses).some((s) => s.startsWith('2')), JSON.stringify(op));
  // Stopped afterwards: its port answers no more.
  assert.not.ok(await fetch(`${target}/version`).then(() => true, () => false), 'the anvil it started still answers');
});

test.run();
