// The contract: for every implemented operation, fast-check generates valid and invalid requests from
// the spec (fuzz/arbitraries.ts, the generators `make fuzz` uses too) and replays them over HTTP with every
// kind of caller, checking each answer as `make fuzz` does (fuzz/check.ts), plus the caller-kind refusals
// that need this test's fixtures. Each answer must be a status the spec
// declares for the operation, never a 5xx, with a body that validates against that response (an empty
// one where the response has no content), and an invalid request is never accepted. CONTRACT_RUNS sets the
// runs per operation (60; an operation that has not succeeded by then gets CONTRACT_TOP_UP (160) more,
// so its success path is reached and checked), CONTRACT_SEED replays a failure, CONTRACT_OPS (a regular expression on the
// operationId) picks operations, CONTRACT_SHARD=k/n runs every n-th operation (the contract-k.test.ts
// files split the work so the test runner spreads it over both cores).
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isImplemented } from '../../src/api/router.js';
import { loadSpec, specOperations } from '../../src/api/spec.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import type { GeneratedRequest } from '../../fuzz/arbitraries.js';
import { contentProblem, statusProblem } from '../../fuzz/check.js';
import { send as sendHttp, type Answer } from '../../fuzz/http.js';
import { declaredFor, dereference, operationShape, responseValidators } from '../../fuzz/openapi.js';
import { callerArb, requestsFor, World, type Caller, type SentRequest } from './world.js';

const numRuns = Number(process.env.CONTRACT_RUNS ?? 60);
const topUp = Number(process.env.CONTRACT_TOP_UP ?? 160);
/**
 * Every run has a seed, printed first, so that any failure (or a hang) can be replayed with CONTRACT_SEED.
 * CONTRACT_SEED=a,b,c runs every operation once per seed (to check that a planted defect fails them all).
 */
const seeds = process.env.CONTRACT_SEED === undefined ? [Math.floor(Math.random() * 2 ** 31)] : process.env.CONTRACT_SEED.split(',').map(Number);
/** Shrinking a failure stops after this long (CONTRACT_SHRINK_SECONDS, 60), all operations together; the last failing request is reported. */
let shrinkBudgetMs = (Number(process.env.CONTRACT_SHRINK_SECONDS) || 60) * 1000;
/** A request with no answer after this long fails the run (the server hung). */
const answerTimeoutMs = (Number(process.env.CONTRACT_ANSWER_SECONDS) || 30) * 1000;

const rawDoc = loadSpec();
const doc = dereference(rawDoc);
const allOps = specOperations(rawDoc);
const implemented = allOps.filter((op) => isImplemented(op.operationId));
const picked = process.env.CONTRACT_OPS ? new RegExp(process.env.CONTRACT_OPS) : undefined;
const [shard, shards] = (process.env.CONTRACT_SHARD ?? '1/1').split('/').map(Number) as [number, number];
// With CONTRACT_OPS, the first shard runs every operation picked (the other files, none), so a replay is one file.
const ops = picked
  ? (shard === 1 ? implemented.filter((op) => picked.test(op.operationId)) : [])
  : implemented.filter((_op, i) => i % shards === shard - 1);
const declared = responseValidators(rawDoc, ops);
console.log(`contract: ${implemented.length} of ${allOps.length} operations implemented`);
console.log(`contract: seed ${seeds.join(',')} (replay with CONTRACT_SEED=${seeds.join(',')} CONTRACT_SHARD=${shard}/${shards}, or CONTRACT_OPS=<operationId> for one operation, in contract-1)`);

let app: TestApp;
let world: World;
test.before(async () => {
  // Generated clone addresses name any host: only 127.0.0.1 may be reached, so no name is ever looked up;
  // loopback is allowed so that push mirrors (#39) can be added (they name a closed port, 127.0.0.1:9).
  app = await startApp({ MIGRATIONS_ALLOWED_DOMAINS: '127.0.0.1', MIGRATIONS_ALLOW_LOCALNETWORKS: 'true' });
  world = await World.create(app);
});
test.after(async () => {
  await app?.close();
});

// A fixture that could not be built would quietly turn its operations' success paths into 4xx answers.
test('fixtures: every one was built', () => {
  assert.equal(world.setupProblems, [], `fixtures not built:\n${world.setupProblems.join('\n')}`);
});

const clip = (s: string, n = 2000) => (s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s);

function describeRequest(sent: SentRequest, req: GeneratedRequest): string {
  const lines = [
    `request (${req.valid ? 'valid' : `invalid: ${req.broken}`}):`,
    `  ${sent.method} ${sent.url}`,
    `  caller: ${sent.caller}${Object.keys(sent.headers).length ? ` ${JSON.stringify(sent.headers)}` : ''}`,
  ];
  if (req.bodyKind !== 'none') lines.push(`  ${req.bodyKind} body: ${clip(JSON.stringify(sent.shown) ?? 'undefined')}`);
  return lines.join('\n');
}

for (const op of ops) for (const seed of seeds) {
  const shape = operationShape(doc, op);
  const responses = declared.get(op.operationId)!;
  const statuses = new Map<number, number>();

  test(`${op.operationId}: ${op.method.toUpperCase()} ${op.path} answers as the spec declares${seeds.length > 1 ? ` (seed ${seed})` : ''}`, async () => {
    statuses.clear();
    // Printed first: when a file hangs, its output names the operation it hung in.
    console.log(`contract: ${op.operationId}: starting`);
    await world.prepare(op.operationId);
    const requests = requestsFor(world, op.operationId, shape);
    const started = Date.now();
    let runs = 0;
    let failedAt: number | undefined;
    const send = async (sent: SentRequest, req: GeneratedRequest): Promise<Answer> => {
      try {
        return await sendHttp(sent, { timeoutMs: answerTimeoutMs, rawBody: responses.has('205') });
      } catch (err) {
        throw new Error(`${op.operationId}: ${(err as Error).message}\n${describeRequest(sent, req)}`);
      }
    };
    const check = async (caller: Caller, req: GeneratedRequest) => {
        await world.restore();
        const path = world.resolvePath(req.path);
        const sent = world.build(op.method, op.path, path, req, caller);
        const answer = await send(sent, req);
        const { status, contentType, text } = answer;
        world.after(op.path, op.method, path, status, answer.json);
        runs++;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const fail = (problem: string): never => {
          const shown = `answer:\n  ${status} ${contentType}\n  ${clip(text) || '(empty body)'}`;
          const message = `${op.operationId}: ${problem}\n${describeRequest(sent, req)}\n${shown}`;
          throw new Error(message);
        };

        const wrongStatus = statusProblem(responses, answer, req.valid);
        if (wrongStatus) fail(wrongStatus);
        const due = world.refusalDue(op.operationId, op.path, op.access, path, caller);
        if (due && status < 300) fail(`answered ${status} to ${due}: a 401, 403 or 404 is due`);
        if (req.goForm && req.stripped && status === 422) {
          // Go's form of "not given" must read as not given: the same request without it must be refused too.
          const plain = world.build(op.method, op.path, path, req.stripped, caller);
          const other = await send(plain, req.stripped);
          world.after(op.path, op.method, path, other.status, undefined);
          if (other.status !== 422) fail(`refused the Go form ${req.goForm} with 422, but answered ${other.status} without it (${plain.method} ${plain.url})`);
        }
        const wrongContent = contentProblem(declaredFor(responses, status)!, answer);
        if (wrongContent) fail(wrongContent);
    };
    const property = fc.asyncProperty(callerArb(op.access.basicOnly), requests, async (caller, req) => {
      // Once a failure is found, shrinking runs within the budget left; past it every candidate passes
      // untried, which ends shrinking at once, and the last failing request is the one reported.
      if (failedAt !== undefined && Date.now() - failedAt > shrinkBudgetMs) return;
      try {
        await check(caller, req);
      } catch (err) {
        if (failedAt === undefined) {
          failedAt = Date.now();
          console.log(`contract: FAILED ${op.operationId} (seed ${seed}); shrinking for at most ${(shrinkBudgetMs / 1000).toFixed(0)}s. First failure:\n${(err as Error).message}`);
        }
        throw err;
      }
    });
    const assertProperty = async (runs: number, s: number) => {
      try {
        await fc.assert(property, { numRuns: runs, includeErrorInReport: true, seed: s });
      } finally {
        if (failedAt !== undefined) shrinkBudgetMs = Math.max(0, shrinkBudgetMs - (Date.now() - failedAt));
      }
    };
    const succeeded = () => [...statuses.keys()].some((s) => s >= 200 && s < 300);
    await assertProperty(numRuns, seed);
    if (!succeeded() && topUp > 0) await assertProperty(topUp, seed + 1);
    const counts = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
    console.log(`contract: ${op.operationId}: ${runs} runs, statuses {${counts}} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
    if (fixtureMissing.has(op.operationId)) {
      console.log(`contract: ${op.operationId}: success path not reached, no fixture yet (its operation test covers it)`);
      return;
    }
    if (disabledByDefault.has(op.operationId)) {
      // No caller can succeed with the default configuration; every answer was still checked above.
      assert.ok(!succeeded(), `${op.operationId} succeeded, though it is documented as disabled by default`);
      return;
    }
    assert.ok(
      succeeded(),
      `${op.operationId} never succeeded in ${runs} runs ({${counts}}): the fixtures do not reach its success path`,
    );
  });
}

/**
 * Operations that refuse every caller unless the site enables them, as in Gitea: the git hooks API (403)
 * (Gitea's DISABLE_GIT_HOOKS, on by default as in anvil; the enabled case is tested by the operations' own files), the server's
 * signing keys, which only SIGNING_KEY provides (its cases are tested by integration/commitSigning), and federation, which anvil does not have.
 */
const disabledByDefault = new Set([
  'repoListGitHooks', 'repoGetGitHook', 'repoEditGitHook', 'repoDeleteGitHook',
  // The server's signing keys: without SIGNING_KEY (the world's default) these are 404 to everyone (Gitea without a key).
  'getSigningKey', 'getSigningKeySSH', 'repoSigningKey', 'repoSigningKeySSH',
  // Federation (NodeInfo, ActivityPub): Gitea serves these only with [federation] ENABLED; anvil has none (404).
  'getNodeInfo', 'activitypubPerson', 'activitypubPersonInbox',
]);

/**
 * Operations merged in session 16 whose success path the world has no fixture for yet: a
 * merged pull request's commit, a team given a repository, an issue to delete (their operation tests reach it). Every other check still holds for them: no 5xx, only declared
 * statuses and bodies, no invalid request accepted, every refusal due. Each entry goes when its fixture
 * is built.
 */
const fixtureMissing = new Set([
  'issueDelete', 'repoGetCommitPullRequest', 'repoDeleteTeam',
  // #38: their body names a second issue by number (IssueMeta.index); a generated int64 rarely hits one of the
  // fixture issues, so the success path is reached only by luck (their operation tests cover it).
  'issueCreateIssueDependencies', 'issueRemoveIssueDependencies', 'issueCreateIssueBlocking', 'issueRemoveIssueBlocking',
  // #39: a migration's success needs a source server, a sync's a mirror (repoMigrate.test.ts, repoMirrorSync.test.ts start one).
  'repoMigrate', 'repoMirrorSync',
  // Renames would take a fixture's name away (world.ts gives them only names they refuse).
  'renameOrg', 'adminRenameUser',
]);

// Fixtures put back after a run changed them are built the same way; one that failed to come back
// turned the later runs of some operations into 4xx answers.
test('fixtures: every one put back after a change was rebuilt', () => {
  assert.equal(world.setupProblems, [], `fixtures not rebuilt:\n${world.setupProblems.join('\n')}`);
});

test.run();
