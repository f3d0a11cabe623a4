// The fuzzer: fast-check properties over HTTP against a base URL, on the generators of arbitraries.ts.
// Per operation, valid and invalid requests from any caller kind, each answer checked (check.ts); per
// stateful chain (model.ts), create → read → list → (private: hidden from others) → update → read →
// delete → read, with their laws. A failure is shrunk (within a time limit) and kept as the exact
// requests that show it. With a second target every request goes to both and the answers are compared.
import fc from 'fast-check';
import { anyRequest, invalidRequestKinds, validRequest, type GeneratedRequest, type JsonSchema, type OperationShape } from './arbitraries.js';
import { contentProblem, statusProblem } from './check.js';
import { diffAnswers, isExpected, type ExpectedDifference } from './compare.js';
import { NoAnswer, send, toCurl, type Answer, type HttpRequest } from './http.js';
import { keyOf, type Chain, type FuzzOperation, type Model } from './model.js';
import { declaredFor } from './openapi.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A way of signing in: the header sent, and how a printed curl command shows it (a shell expression). */
export interface Credential {
  header: string;
  value: string;
  shown: string;
}
export interface Target {
  label: string;
  /** The API's base: scheme, host, port and the spec's path prefix (http://127.0.0.1:3000/api/v1). */
  base: string;
  admin?: Credential;
  outsider?: Credential;
}
export type CallerKind = 'admin' | 'anonymous' | 'outsider';

export interface Step {
  target: string;
  caller: CallerKind;
  operationId: string;
  method: string;
  url: string;
  curl: string;
  status: number;
  ms: number;
  /** The answer's body, clipped, for the report. */
  body: string;
}
export interface Finding {
  kind: 'check' | 'law' | 'difference' | 'hang';
  operationId: string;
  problem: string;
  /** The requests of the shrunk case, in order; the last one shows the problem. */
  steps: Step[];
  /** The run's seed: with the replay command, it runs the same case again. */
  seed: number;
  replay: string;
}
export interface OperationStats {
  operationId: string;
  method: string;
  path: string;
  runs: number;
  statuses: Record<string, number>;
  ms: { p50: number; p95: number; max: number };
  skipped?: string;
}
export interface ChainStats {
  producer: string;
  read: string;
  via: string;
  runs: number;
  created: number;
  laws: string[];
}
export interface Report {
  seed: number;
  targets: string[];
  seconds: number;
  operations: OperationStats[];
  chains: ChainStats[];
  findings: Finding[];
}

export interface FuzzOptions {
  model: Model;
  targets: [Target] | [Target, Target];
  /** Operations picked (by operationId, then tag); chains run when their producer is picked. */
  operations: FuzzOperation[];
  runs: number;
  budgetMs: number;
  seed: number;
  readOnly: boolean;
  shrinkMs: number;
  timeoutMs: number;
  expected: ExpectedDifference[];
  /** The command that replays one operation's run with its seed. */
  replay: (operationId: string, seed: number) => string;
  log: (line: string) => void;
}

interface ChainInput { create: GeneratedRequest; update?: GeneratedRequest; makePrivate: boolean }

class Failure extends Error {
  constructor(readonly kind: Finding['kind'], message: string) {
    super(message);
  }
}

const clip = (s: string, n = 600) => (s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s);
const hashSeed = (seed: number, name: string) => {
  let h = seed | 0;
  for (const c of name) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return Math.abs(h) % 2 ** 31;
};
const percentile = (xs: number[], p: number) => {
  if (!xs.length) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
};
const is2xx = (s: number) => s >= 200 && s < 300;

/** A client cannot put a lone surrogate on the wire; fetch and URLSearchParams send U+FFFD instead. */
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** A file path spans segments and goes per segment unless one is empty or a dot segment; anything else whole. */
function encodePathValue(name: string, value: string): string {
  const segments = value.split('/');
  const plain = segments.every((seg) => seg !== '' && !/^(\.|%2e){1,2}$/i.test(seg));
  return /path$/i.test(name) && plain ? segments.map(encodeURIComponent).join('/') : encodeURIComponent(value);
}

/** The body schema keeping only its required members (a create that names the least succeeds the most). */
function requiredOnly(shape: OperationShape): OperationShape {
  const content = shape.requestBody?.content;
  const json = content && Object.keys(content).find((ct) => /json/i.test(ct));
  if (!json) return shape;
  const schema = content[json]!.schema;
  if (!isObj(schema.properties) || schema.allOf || schema.oneOf || schema.anyOf) return shape;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const slim: JsonSchema = { ...schema, properties: Object.fromEntries(Object.entries(schema.properties).filter(([k]) => required.has(k))) };
  return { ...shape, requestBody: { ...shape.requestBody, content: { [json]: { schema: slim } } } };
}

/**
 * Valid requests whose body always names at least one of its members (an update that names nothing
 * changes nothing, so the update law would have nothing to check): one member picked, made required.
 */
function namingOneMember(shape: OperationShape, fixtures: Record<string, string[]>): fc.Arbitrary<GeneratedRequest> {
  const content = shape.requestBody?.content;
  const json = content && Object.keys(content).find((ct) => /json/i.test(ct));
  const schema = json ? content[json]!.schema : undefined;
  if (!json || !schema || !isObj(schema.properties) || schema.allOf || schema.oneOf || schema.anyOf) return validRequest(shape, fixtures);
  const keys = Object.keys(schema.properties);
  if (!keys.length) return validRequest(shape, fixtures);
  const required = (schema.required as string[] | undefined) ?? [];
  return fc.constantFrom(...keys).chain((k) => validRequest({
    ...shape, requestBody: { ...shape.requestBody, required: true, content: { [json]: { schema: { ...schema, required: [...new Set([...required, k])] } } } },
  }, fixtures));
}

const scalarValue = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
/**
 * The same scalar members of two objects, for `keys`: the ones that differ. `missing`: a member `a`
 * has and `b` lacks differs too (an update's answer showing a member a read afterwards no longer has).
 */
function unequalMembers(keys: string[], a: Obj, b: Obj, missing = false): string[] {
  return keys.filter((k) => Object.hasOwn(a, k) && scalarValue(a[k]) && (Object.hasOwn(b, k) ? scalarValue(b[k]) && a[k] !== b[k] : missing && a[k] !== null))
    .map((k) => `${k}: ${JSON.stringify(a[k])} then ${Object.hasOwn(b, k) ? JSON.stringify(b[k]) : 'missing'}`);
}

/**
 * Where in a created object a path value came from (a JSON path for jq's getpath), so that a printed
 * replay takes the value from its own create's answer: the member named like the parameter, the usual
 * keys (number, id, name, login), then any scalar member one level down.
 */
function pointerTo(object: Obj, param: string, value: string): string[] | undefined {
  const same = (v: unknown) => (typeof v === 'string' || typeof v === 'number') && String(v) === value;
  const nested = isObj(object[param]) ? object[param] : undefined;
  for (const k of [param, 'number', 'index', 'id', 'name', 'login', 'username']) if (same(object[k])) return [k];
  if (nested) for (const k of ['login', 'username', 'name', 'id']) if (same(nested[k])) return [param, k];
  for (const [k, v] of Object.entries(object)) {
    if (same(v)) return [k];
    if (isObj(v)) for (const [kk, vv] of Object.entries(v)) if (same(vv)) return [k, kk];
  }
  return undefined;
}

const quoteShell = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export class Fuzzer {
  /** Path parameter values known to exist on the (first) server, most recent last. */
  private readonly pool = new Map<string, string[]>();
  private readonly stats = new Map<string, { runs: number; statuses: Map<number, number>; ms: number[]; skipped?: string }>();
  private readonly findings: Finding[] = [];
  private readonly chainStats: ChainStats[] = [];
  /** The requests of the run being tried, per target. */
  private steps: Step[] = [];
  /**
   * In a chain: the path values its create (or update) answered, by parameter, with the shell variable
   * a printed replay captures them in from that answer; the curl commands after it use the variable.
   */
  private placeholders = new Map<string, { value: string; variable: string }>();

  constructor(private readonly o: FuzzOptions) {}

  // ---------------------------------------------------------------- requests

  private credential(target: Target, caller: CallerKind): Credential | undefined {
    return caller === 'admin' ? target.admin : caller === 'outsider' ? target.outsider : undefined;
  }

  private build(target: Target, op: FuzzOperation, path: Record<string, string>, req: GeneratedRequest, caller: CallerKind): HttpRequest {
    const filled = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodePathValue(name, wellFormed(path[name] ?? '')));
    // The URL as printed: a value a chain's create answered is its shell variable (marked here, expanded by toCurl).
    const shownPath = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const held = this.placeholders.get(name);
      return held && held.value === path[name] ? `\u0001${held.variable}\u0001` : encodePathValue(name, wellFormed(path[name] ?? ''));
    });
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query)) for (const item of [v].flat()) query.append(k, wellFormed(item));
    const qs = query.toString();
    const headers: Record<string, string> = {};
    const cred = this.credential(target, caller);
    if (cred) headers[cred.header] = cred.value;
    const sent: HttpRequest = { method: op.method.toUpperCase(), url: `${target.base}${filled}${qs ? `?${qs}` : ''}`, headers };
    if (shownPath !== filled) sent.shownUrl = `${target.base}${shownPath}${qs ? `?${qs}` : ''}`;
    if (req.bodyKind === 'json') {
      headers['Content-Type'] = 'application/json';
      sent.body = JSON.stringify(req.body);
      sent.shown = req.body;
    } else if (req.bodyKind === 'multipart') {
      const form = new FormData();
      for (const [k, v] of Object.entries(req.body as Obj)) {
        for (const part of [v].flat()) {
          if (isObj(part) && 'content' in part) form.append(k, new Blob([Uint8Array.from(part.content as Uint8Array)]), String(part.filename));
          else form.append(k, wellFormed(typeof part === 'string' ? part : JSON.stringify(part)));
        }
      }
      sent.body = form;
      sent.shown = req.body;
    }
    return sent;
  }

  private secrets(target: Target) {
    return [
      ...[target.admin, target.outsider].filter((c): c is Credential => !!c).map((c) => ({ value: c.value, shell: c.shown })),
      ...[...this.placeholders.values()].map((p) => ({ value: `\u0001${p.variable}\u0001`, shell: `\${${p.variable}}` })),
    ];
  }

  /**
   * After a chain's create (or an update that renames): the path values `ids` the answer `object` gave
   * become shell variables, captured by the printed command of the step that answered (with jq), so a
   * replay addresses what its own create made, not what this run's create made.
   */
  private capture(target: Target, object: Obj, ids: Record<string, string>, context: Record<string, string>) {
    const step = this.steps.at(-1);
    if (!step) return;
    const captures: string[] = [];
    for (const [param, value] of Object.entries(ids)) {
      if (context[param] === value && !this.placeholders.has(param)) continue; // the create's own path: the same on a replay
      const pointer = pointerTo(object, param, value);
      if (!pointer) continue;
      const variable = `${target.label}_${param.replace(/\W/g, '_')}`;
      this.placeholders.set(param, { value, variable });
      captures.push(`${variable}=$(printf '%s\\n' "$${target.label}_ANSWER" | sed '$d' | jq -r ${quoteShell(`getpath(${JSON.stringify(pointer)}) | tostring | @uri`)})`);
    }
    if (captures.length) step.curl = `${target.label}_ANSWER=$(${step.curl}); printf '%s\\n' "$${target.label}_ANSWER"; ${captures.join('; ')}`;
  }

  /** Sends one request, records it as a step (and in the statistics, for the first target). */
  private async exchange(target: Target, op: FuzzOperation, path: Record<string, string>, req: GeneratedRequest, caller: CallerKind): Promise<Answer> {
    const sent = this.build(target, op, path, req, caller);
    const curl = toCurl(sent, this.secrets(target));
    let answer: Answer;
    try {
      answer = await send(sent, { timeoutMs: this.o.timeoutMs, rawBody: op.responses.has('205') });
    } catch (err) {
      this.steps.push({ target: target.label, caller, operationId: op.operationId, method: sent.method, url: sent.url, curl, status: 0, ms: this.o.timeoutMs, body: '' });
      if (err instanceof NoAnswer) throw new Failure('hang', `${op.operationId}: ${err.message}`);
      throw err;
    }
    this.steps.push({ target: target.label, caller, operationId: op.operationId, method: sent.method, url: sent.url, curl, status: answer.status, ms: Math.round(answer.ms), body: clip(answer.text) });
    if (target === this.o.targets[0]) {
      const s = this.statsOf(op);
      s.runs++;
      s.statuses.set(answer.status, (s.statuses.get(answer.status) ?? 0) + 1);
      s.ms.push(answer.ms);
      if (is2xx(answer.status)) this.harvest(op, path, answer.json);
    }
    return answer;
  }

  /** The checks of check.ts, as a thrown Failure. */
  private check(op: FuzzOperation, answer: Answer, req: GeneratedRequest) {
    const status = statusProblem(op.responses, answer, req.valid);
    // An invalid request accepted: say what was broken in it.
    const problem = status && !req.valid && answer.status < 300 && req.broken ? `${status} (${req.broken})` : status ?? contentProblem(declaredFor(op.responses, answer.status)!, answer);
    if (problem) throw new Failure('check', `${op.operationId}: ${problem}`);
  }

  private statsOf(op: FuzzOperation) {
    let s = this.stats.get(op.operationId);
    if (!s) this.stats.set(op.operationId, (s = { runs: 0, statuses: new Map(), ms: [] }));
    return s;
  }

  // ---------------------------------------------------------------- what exists on the server

  private remember(param: string, value: string | undefined) {
    if (value === undefined || value === '') return;
    const values = this.pool.get(param) ?? [];
    if (values.includes(value)) return;
    values.push(value);
    if (values.length > 20) values.shift();
    this.pool.set(param, values);
  }

  /** A 2xx answer: its path values exist, and so do the objects it holds, under the parameters that address them. */
  private harvest(op: FuzzOperation, path: Record<string, string>, json: unknown) {
    if (op.method === 'delete') {
      // What was deleted is no longer there to address.
      const last = op.pathParams.at(-1);
      if (last) this.pool.set(last, (this.pool.get(last) ?? []).filter((v) => v !== path[last]));
      return;
    }
    for (const p of op.pathParams) this.remember(p, path[p]);
    if (!op.result || json === undefined) return;
    const objects = (Array.isArray(json) ? json : [json]).filter(isObj).slice(0, 10);
    for (const chain of this.o.model.chains) {
      if (chain.schema !== op.result.schema) continue;
      for (const object of objects) for (const [k, v] of Object.entries(chain.derive(object, path) ?? {})) this.remember(k, v);
    }
  }

  private fixtures(): Record<string, string[]> {
    return Object.fromEntries(this.pool);
  }

  // ---------------------------------------------------------------- the run

  async run(): Promise<Report> {
    const started = Date.now();
    const { readOnly } = this.o;
    const picked = this.o.operations.filter((op) => !readOnly || op.method === 'get');
    const order = (op: FuzzOperation) => ({ get: 0, post: 1, put: 2, patch: 3, delete: 4 })[op.method] ?? 5;
    const stateless = [...picked].sort((a, b) => order(a) - order(b));
    const chains = readOnly ? [] : this.o.model.chains.filter((c) => picked.includes(c.producer));
    await this.discover(picked, chains);
    const units = stateless.length + chains.length;
    let done = 0;
    const slice = () => Math.max(200, (this.o.budgetMs - (Date.now() - started)) / Math.max(1, units - done));
    // Deletes last: the chains still find the objects they build on.
    for (const op of stateless.filter((o) => o.method !== 'delete')) {
      await this.fuzzOperation(op, Date.now() + slice());
      done++;
    }
    for (const chain of chains) {
      await this.fuzzChain(chain, Date.now() + slice());
      done++;
    }
    for (const op of stateless.filter((o) => o.method === 'delete')) {
      await this.fuzzOperation(op, Date.now() + slice());
      done++;
    }
    return {
      seed: this.o.seed,
      targets: this.o.targets.map((t) => t.base),
      seconds: Math.round((Date.now() - started) / 100) / 10,
      operations: picked.map((op) => {
        const s = this.stats.get(op.operationId) ?? { runs: 0, statuses: new Map<number, number>(), ms: [] as number[], skipped: undefined };
        return {
          operationId: op.operationId, method: op.method.toUpperCase(), path: op.path, runs: s.runs,
          statuses: Object.fromEntries([...s.statuses].sort(([a], [b]) => a - b)),
          ms: { p50: percentile(s.ms, 50), p95: percentile(s.ms, 95), max: percentile(s.ms, 100) },
          ...(s.skipped ? { skipped: s.skipped } : {}),
        };
      }),
      chains: this.chainStats,
      findings: this.findings,
    };
  }

  /**
   * Before fuzzing: every picked GET without path parameters, then (writes allowed) one create per
   * producer, twice over (a repository first, then what lives in it), to learn what exists.
   */
  private async discover(picked: FuzzOperation[], chains: Chain[]) {
    const [target] = this.o.targets;
    const other = this.o.targets[1];
    // In differential mode the second server gets the same requests, so both hold the same objects.
    const quiet = async (op: FuzzOperation, req: GeneratedRequest, path: Record<string, string>) => {
      try {
        if (other) await this.exchange(other, op, path, req, 'admin').catch(() => undefined);
        return await this.exchange(target, op, path, req, 'admin');
      } catch {
        return undefined;
      } finally {
        this.steps = [];
      }
    };
    const sample = (arb: fc.Arbitrary<GeneratedRequest>, seed: number) => fc.sample(arb, { numRuns: 1, seed })[0]!;
    for (const op of picked.filter((o) => o.method === 'get' && o.pathParams.length === 0)) {
      await quiet(op, sample(validRequest(requiredOnly(op.shape)), this.o.seed), {});
    }
    for (let pass = 0; pass < 2; pass++) {
      for (const chain of chains) {
        const op = chain.producer;
        for (let attempt = 0; attempt < 4; attempt++) {
          const fixtures = this.fixtures();
          if (op.pathParams.some((p) => !fixtures[p]?.length)) break;
          const req = sample(validRequest(requiredOnly(op.shape), fixtures), hashSeed(this.o.seed, `${op.operationId}${pass}${attempt}`));
          const answer = await quiet(op, req, req.path);
          if (answer && is2xx(answer.status)) break;
        }
      }
    }
  }

  private record(kind: Finding['kind'], operationId: string, problem: string, steps: Step[]) {
    // The same problem found again (by the sweep after the random runs) is not a second finding.
    const gist = (p: string) => p.split('\n')[0]!.replace(/ \(.*\)$/, '');
    if (this.findings.some((f) => f.kind === kind && f.operationId === operationId && gist(f.problem) === gist(problem))) return;
    this.findings.push({ kind, operationId, problem, steps, seed: this.o.seed, replay: this.o.replay(operationId, this.o.seed) });
  }

  /**
   * Runs `property` under fast-check until `deadline`; the first failure is shrunk for at most
   * shrinkMs, and the last failing case (the smallest found) becomes the finding.
   */
  private async runProperty<T>(operationId: string, seed: number, arb: fc.Arbitrary<T>, body: (value: T) => Promise<void>, deadline: number, numRuns = this.o.runs): Promise<boolean> {
    let failedAt: number | undefined;
    let last: { kind: Finding['kind']; problem: string; steps: Step[] } | undefined;
    // The budget is shared out, but every operation gets a few runs however slow the server is.
    let tried = 0;
    const minimum = Math.min(numRuns, 10);
    const property = fc.asyncProperty(arb, async (value) => {
      if (failedAt === undefined ? tried >= minimum && Date.now() > deadline : Date.now() - failedAt > this.o.shrinkMs) return;
      tried++;
      this.steps = [];
      try {
        await body(value);
      } catch (err) {
        if (failedAt === undefined) {
          failedAt = Date.now();
          this.o.log(`fuzz: ${operationId}: FAILED (seed ${seed}), shrinking for at most ${Math.round(this.o.shrinkMs / 1000)}s: ${(err as Error).message.split('\n')[0]}`);
        }
        last = { kind: err instanceof Failure ? err.kind : 'check', problem: (err as Error).message, steps: this.steps };
        throw err;
      } finally {
        this.steps = [];
      }
    });
    await fc.check(property, { numRuns, seed });
    if (last) this.record(last.kind, operationId, last.problem, last.steps);
    return last !== undefined;
  }

  private callers(): fc.Arbitrary<CallerKind> {
    const [a, b] = this.o.targets;
    const outsider = a.outsider && (!b || b.outsider);
    return fc.oneof(
      { weight: a.admin ? 5 : 0, arbitrary: fc.constant<CallerKind>('admin') },
      { weight: 2, arbitrary: fc.constant<CallerKind>('anonymous') },
      ...(outsider ? [{ weight: 2, arbitrary: fc.constant<CallerKind>('outsider') }] : []),
    );
  }

  private async fuzzOperation(op: FuzzOperation, deadline: number) {
    const [a, b] = this.o.targets;
    const seed = hashSeed(this.o.seed, op.operationId);
    // An operation the server says it does not implement (501 to a valid request) is skipped, not failed.
    const fixtures = this.fixtures();
    const probe = fc.sample(validRequest(op.shape, fixtures), { numRuns: 1, seed })[0]!;
    try {
      if (b) await this.exchange(b, op, probe.path, probe, 'admin').catch(() => undefined);
      const answer = await this.exchange(a, op, probe.path, probe, 'admin');
      if (answer.status === 501) {
        this.statsOf(op).skipped = 'the server does not implement it (501)';
        return;
      }
    } catch {
      // a hang or a refused connection: the property below finds it again and reports it
    } finally {
      this.steps = [];
    }
    this.o.log(`fuzz: ${op.operationId} (${op.method.toUpperCase()} ${op.path})`);
    // Plain requests: valid, on known path values, with the required members only or with any of the optional ones.
    const plainArb = fc.oneof(validRequest(requiredOnly(op.shape), fixtures), validRequest(op.shape, fixtures, true));
    const arb = fc.tuple(this.callers(), anyRequest(op.shape, fixtures), plainArb);
    await this.runProperty(op.operationId, seed, fc.tuple(arb, fc.boolean()), async ([[caller, any, plain], pickPlain]) => {
      // Half the runs are plain requests: they reach the success paths (and the answers only valid input gets).
      const req = pickPlain ? plain : any;
      const answer = await this.exchange(a, op, req.path, req, caller);
      this.check(op, answer, req);
      if (b) {
        const other = await this.exchange(b, op, req.path, req, caller);
        this.compare(op, answer, other);
      }
    }, deadline);
    await this.sweepInvalid(op);
  }

  /**
   * Every way of breaking this operation's request (arbitraries.ts's invalidRequestKinds), one request
   * each, as the most privileged caller and on path values that exist, so that an invalid request
   * accepted is found whatever the seed: the random runs draw from the same kinds but may miss one.
   * The first break accepted (or answered wrongly) is shrunk and reported; the sweep then stops.
   */
  private async sweepInvalid(op: FuzzOperation) {
    const [a, b] = this.o.targets;
    const caller: CallerKind = a.admin ? 'admin' : 'anonymous';
    const kinds = invalidRequestKinds(op.shape, this.fixtures(), true);
    const seed = hashSeed(this.o.seed, `${op.operationId} invalid`);
    for (const [i, arb] of kinds.entries()) {
      const found = await this.runProperty(op.operationId, seed + i, arb, async (req) => {
        const answer = await this.exchange(a, op, req.path, req, caller);
        this.check(op, answer, req);
        if (b) this.compare(op, answer, await this.exchange(b, op, req.path, req, caller));
      }, Infinity, 1);
      if (found) return;
    }
  }

  private compare(op: FuzzOperation, a: Answer, b: Answer) {
    const diffs = diffAnswers(a, b).filter((d) => !isExpected(this.o.expected, op.operationId, d));
    if (diffs.length) throw new Failure('difference', `${op.operationId}: the servers answer differently:\n  ${diffs.join('\n  ')}`);
  }

  // ---------------------------------------------------------------- stateful chains

  private async fuzzChain(chain: Chain, deadline: number) {
    const { producer, read, update, remove, list } = chain;
    const name = `${producer.operationId}→${read.operationId}`;
    const laws = ['created is readable', ...(list ? ['created is listed'] : []), ...(chain.privacy ? ['private is hidden from anonymous and outsider'] : []),
      ...(update ? ['update is visible'] : []), ...(remove ? ['deleted is 404'] : [])];
    const stats: ChainStats = { producer: producer.operationId, read: read.operationId, via: chain.via, runs: 0, created: 0, laws };
    this.chainStats.push(stats);
    this.o.log(`fuzz: chain ${name} (${laws.join(', ')})`);
    const fixtures = this.fixtures();
    const arb = fc.record({
      create: fc.oneof(validRequest(requiredOnly(producer.shape), fixtures), validRequest(producer.shape, fixtures)),
      // The update always names a member, so the law that a read shows it is checked on every chain run.
      update: update ? namingOneMember(update.shape, fixtures) : fc.constant(undefined),
      makePrivate: fc.boolean(),
    });
    const seed = hashSeed(this.o.seed, name);
    await this.runProperty(producer.operationId, seed, arb, async (input) => {
      stats.runs++;
      const [a, b] = this.o.targets;
      const answersA = await this.chainOnce(chain, a, input, stats);
      if (b) {
        const answersB = await this.chainOnce(chain, b, input);
        for (let i = 0; i < Math.max(answersA.length, answersB.length); i++) {
          const [x, y] = [answersA[i], answersB[i]];
          if (!x || !y) throw new Failure('difference', `${name}: the servers answer differently: the sequence ends after ${Math.min(answersA.length, answersB.length)} requests on one of them`);
          this.compare(x.op, x.answer, y.answer);
        }
      }
    }, deadline);
  }

  /** One create → ... → delete sequence on one target; the answers in order (for comparing targets). */
  private async chainOnce(chain: Chain, target: Target, input: ChainInput, stats?: ChainStats) {
    this.placeholders = new Map();
    try {
      return await this.chainSteps(chain, target, input, stats);
    } finally {
      this.placeholders = new Map();
    }
  }

  private async chainSteps(chain: Chain, target: Target, input: ChainInput, stats?: ChainStats) {
    const { producer, read, update, remove, list } = chain;
    const out: Array<{ op: FuzzOperation; answer: Answer }> = [];
    const call = async (op: FuzzOperation, path: Record<string, string>, req: GeneratedRequest, caller: CallerKind) => {
      const answer = await this.exchange(target, op, path, req, caller);
      out.push({ op, answer });
      // The second server of differential mode is compared with the first, not with the spec.
      if (target === this.o.targets[0]) this.check(op, answer, req);
      return answer;
    };
    const law = (ok: boolean, problem: string) => {
      if (!ok && target === this.o.targets[0]) throw new Failure('law', `${producer.operationId}→${read.operationId}: ${problem}`);
    };
    const none = (path: Record<string, string>): GeneratedRequest => ({ path, query: {}, bodyKind: 'none', valid: true });

    let create = input.create;
    if (chain.privacy && input.makePrivate && isObj(create.body)) create = { ...create, body: { ...create.body, private: true } };
    const context = create.path;
    const created = await call(producer, context, create, 'admin');
    if (!is2xx(created.status) || !isObj(created.json)) return out;
    if (stats) stats.created++;
    const object = created.json;
    let ids = chain.derive(object, context);
    if (!ids) return out;
    this.capture(target, object, ids, context);
    const sent = isObj(create.body) ? Object.keys(create.body) : [];
    const lastParam = read.pathParams.at(-1)!;

    // Read: what was created is there, as created.
    const got = await call(read, ids, none(ids), 'admin');
    law(is2xx(got.status), `what ${producer.operationId} created (${read.path} with ${JSON.stringify(ids)}) cannot be read back: ${read.operationId} answered ${got.status}`);
    if (isObj(got.json)) {
      const changed = unequalMembers(sent, object, got.json);
      law(!changed.length, `what ${producer.operationId} created reads back differently: ${changed.join('; ')}`);
    }

    // List: it is among the listed (first pages, the largest page size the spec allows).
    if (list && list.pathParams.every((p) => context[p] !== undefined)) {
      const limit = list.shape.parameters.find((p) => p.in === 'query' && p.name === 'limit');
      const max = limit && typeof limit.schema.maximum === 'number' ? limit.schema.maximum : 50;
      const query: Record<string, string> = limit ? { limit: String(Math.min(max, 50)) } : {};
      let found = false;
      let listed = 0;
      for (let page = 1; page <= 20 && !found; page++) {
        const pageParam = list.shape.parameters.find((p) => p.in === 'query' && p.name === 'page');
        const req: GeneratedRequest = { path: context, query: pageParam ? { ...query, page: String(page) } : query, bodyKind: 'none', valid: true };
        const answer = await call(list, context, req, 'admin');
        if (!is2xx(answer.status) || !Array.isArray(answer.json)) break;
        listed += answer.json.length;
        found = answer.json.some((item) => isObj(item) && keyOf(lastParam, item, chain.schema) === ids![lastParam]);
        if (!pageParam || !/rel="?next/.test(answer.headers.get('link') ?? '')) break;
      }
      law(found, `what ${producer.operationId} created (${lastParam} ${ids[lastParam]}) is not listed by ${list.operationId} (${listed} listed)`);
    }

    // Private: an anonymous caller and an outsider cannot see it.
    const isPrivate = object.private === true || (isObj(create.body) && create.body.private === true && object.private === undefined);
    if (chain.privacy && isPrivate) {
      for (const caller of ['anonymous', 'outsider'] as const) {
        if (caller === 'outsider' && !target.outsider) continue;
        const answer = await call(read, ids, none(ids), caller);
        law(answer.status >= 400, `a private object ${producer.operationId} created is visible to ${caller === 'anonymous' ? 'an anonymous caller' : 'an outsider'}: ${read.operationId} answered ${answer.status}`);
      }
    }

    // Update: a read afterwards shows what the update answered.
    if (update && input.update) {
      const req = { ...input.update, path: ids };
      const answer = await call(update, ids, req, 'admin');
      if (is2xx(answer.status)) {
        if (isObj(answer.json)) {
          const renamed = chain.derive(answer.json, context);
          if (renamed) {
            // A rename: the update's answer holds the value later requests address.
            const changedIds = Object.fromEntries(Object.entries(renamed).filter(([k, v]) => ids![k] !== v));
            this.capture(target, answer.json, changedIds, {});
            ids = renamed;
          }
        }
        const after = await call(read, ids, none(ids), 'admin');
        law(is2xx(after.status), `after ${update.operationId} answered ${answer.status}, ${read.operationId} answered ${after.status}`);
        if (isObj(answer.json) && isObj(after.json) && isObj(req.body)) {
          const changed = unequalMembers(Object.keys(req.body), answer.json, after.json, true);
          law(!changed.length, `${update.operationId} answered ${answer.status}, but a read afterwards shows otherwise: ${changed.join('; ')}`);
        }
      }
    }

    // Delete: afterwards it is gone.
    if (remove) {
      const answer = await call(remove, ids, none(ids), 'admin');
      if (is2xx(answer.status)) {
        const after = await call(read, ids, none(ids), 'admin');
        law(after.status === 404 || after.status === 410, `after ${remove.operationId} answered ${answer.status}, ${read.operationId} still answers ${after.status}, not 404`);
      }
    }
    return out;
  }
}
