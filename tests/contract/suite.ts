// The contract: for every implemented operation, fast-check generates valid and invalid requests from
// the spec and replays them over HTTP with every kind of caller. Each answer must be a status the spec
// declares for the operation, never a 5xx, with a body that validates against that response (an empty
// one where the response has no content), and an invalid request is never accepted. CONTRACT_RUNS sets the
// runs per operation (40; an operation that has not succeeded by then gets CONTRACT_TOP_UP (160) more,
// so its success path is reached and checked), CONTRACT_SEED replays a failure, CONTRACT_OPS (a regular expression on the
// operationId) picks operations, CONTRACT_SHARD=k/n runs every n-th operation (the contract-k.test.ts
// files split the work so the test runner spreads it over both cores).
import fc from 'fast-check';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isImplemented } from '../../src/api/router.js';
import { loadSpec, specOperations } from '../../src/api/spec.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import type { GeneratedRequest } from './arbitraries.js';
import { declaredFor, dereference, operationShape, responseValidators } from './openapi.js';
import { callerArb, requestsFor, World, type SentRequest } from './world.js';

const numRuns = Number(process.env.CONTRACT_RUNS ?? 40);
const topUp = Number(process.env.CONTRACT_TOP_UP ?? 160);
const seed = process.env.CONTRACT_SEED === undefined ? undefined : Number(process.env.CONTRACT_SEED);

const rawDoc = loadSpec();
const doc = dereference(rawDoc);
const allOps = specOperations(rawDoc);
const implemented = allOps.filter((op) => isImplemented(op.operationId));
const picked = process.env.CONTRACT_OPS ? new RegExp(process.env.CONTRACT_OPS) : undefined;
const [shard, shards] = (process.env.CONTRACT_SHARD ?? '1/1').split('/').map(Number) as [number, number];
const ops = implemented.filter((op, i) => (!picked || picked.test(op.operationId)) && i % shards === shard - 1);
const declared = responseValidators(rawDoc, ops);
console.log(`contract: ${implemented.length} of ${allOps.length} operations implemented`);

let app: TestApp;
let world: World;
test.before(async () => {
  app = await startApp();
  world = await World.create(app);
  for (const problem of world.setupProblems) console.log(`contract: fixture not built: ${problem}`);
});
test.after(async () => {
  await app?.close();
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

for (const op of ops) {
  const shape = operationShape(doc, op);
  const responses = declared.get(op.operationId)!;
  const statuses = new Map<number, number>();

  test(`${op.operationId}: ${op.method.toUpperCase()} ${op.path} answers as the spec declares`, async () => {
    statuses.clear();
    await world.prepare(op.operationId);
    const requests = requestsFor(world, op.operationId, shape);
    const started = Date.now();
    let runs = 0;
    const property = fc.asyncProperty(callerArb(op.access.basicOnly), requests, async (caller, req) => {
        await world.restore();
        const path = world.resolvePath(req.path);
        const sent = world.build(op.method, op.path, path, req, caller);
        let res: Response;
        let text: string;
        try {
          if (responses.has('205')) {
            // fetch drops a 205's body (a null-body status to it); undici's request API reads what was sent.
            const r = await request(sent.url, { method: sent.method as 'PUT', headers: sent.headers, body: sent.body as string | undefined });
            text = await r.body.text();
            res = new Response(null, { status: r.statusCode, headers: Object.entries(r.headers).flatMap(([k, v]) => [v ?? []].flat().map((x): [string, string] => [k, String(x)])) });
          } else {
            res = await fetch(sent.url, { method: sent.method, headers: sent.headers, body: sent.body, redirect: 'manual' });
            text = await res.text();
          }
        } catch (err) {
          throw new Error(`${op.operationId}: no answer (${String(err)})\n${describeRequest(sent, req)}`);
        }
        const contentType = res.headers.get('content-type') ?? '';
        let json: unknown;
        try {
          json = /json/i.test(contentType) && text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        world.after(op.path, op.method, path, res.status, json);
        runs++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const fail = (problem: string): never => {
          const answer = `answer:\n  ${res.status} ${contentType}\n  ${clip(text) || '(empty body)'}`;
          throw new Error(`${op.operationId}: ${problem}\n${describeRequest(sent, req)}\n${answer}`);
        };

        if (res.status >= 500) fail(`answered ${res.status}`);
        const response = declaredFor(responses, res.status);
        if (!response) fail(`answered ${res.status}, which the spec does not declare (${[...responses.keys()].join(', ')})`);
        if (!req.valid && res.status < 300) fail(`accepted an invalid request with ${res.status}`);
        if (response!.empty && text !== '') fail(`answered ${res.status} with a body where the spec declares none`);
        const validate = response!.validate;
        if (validate) {
          if (!/^application\/json\b/i.test(contentType)) fail(`answered ${res.status} as ${contentType || 'no content type'}, not application/json`);
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            fail(`answered ${res.status} with a body that is not JSON`);
          }
          if (!validate(body)) fail(`the ${res.status} body does not match its schema: ${JSON.stringify(validate.errors)}`);
        }
      });
    const succeeded = () => [...statuses.keys()].some((s) => s >= 200 && s < 300);
    await fc.assert(property, { numRuns, includeErrorInReport: true, ...(seed === undefined ? {} : { seed }) });
    if (!succeeded() && topUp > 0) {
      await fc.assert(property, { numRuns: topUp, includeErrorInReport: true, ...(seed === undefined ? {} : { seed: seed + 1 }) });
    }
    const counts = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
    console.log(`contract: ${op.operationId}: ${runs} runs, statuses {${counts}} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
    assert.ok(
      succeeded(),
      `${op.operationId} never succeeded in ${runs} runs ({${counts}}): the fixtures do not reach its success path`,
    );
  });
}

test.run();
