// Workflow files: parsing, the `on:` filters of a push (GitHub's filter syntax, which Gitea follows), and
// the jobs a workflow makes (one per job, and one per combination of its matrix). Pure: no I/O.
import { parse, stringify } from 'yaml';

export class WorkflowError extends Error {}

type Json = Record<string, unknown>;

export interface Workflow {
  name: string;
  /** `on:` as a map of event → its filter (null when it has none). */
  on: Record<string, unknown>;
  doc: Json;
}

export interface PlannedJob {
  jobId: string;
  name: string;
  needs: string[];
  runsOn: string[];
  /** The job's `if:` expression ('' when it has none). */
  condition: string;
  /** The workflow reduced to this job (and this matrix combination), as the runner receives it. */
  payload: string;
  /** Step names, in order (what the job's steps are called before the runner reports them). */
  steps: string[];
}

const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] | undefined =>
  typeof v === 'string' ? [v] : Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number') ? v.map(String) : undefined;

export function parseWorkflow(text: string): Workflow {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new WorkflowError(`invalid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!isMap(doc)) throw new WorkflowError('a workflow must be a mapping');
  const rawOn = doc.on;
  let on: Record<string, unknown>;
  if (typeof rawOn === 'string') on = { [rawOn]: null };
  else if (Array.isArray(rawOn) && rawOn.every((e) => typeof e === 'string')) on = Object.fromEntries(rawOn.map((e) => [e, null]));
  else if (isMap(rawOn)) on = rawOn;
  else throw new WorkflowError('"on" is missing or not an event name, a list or a mapping');
  const jobs = doc.jobs;
  if (!isMap(jobs) || Object.keys(jobs).length === 0) throw new WorkflowError('"jobs" is missing or empty');
  for (const [key, job] of Object.entries(jobs)) {
    if (!isMap(job)) throw new WorkflowError(`job "${key}" is not a mapping`);
    if (job['runs-on'] === undefined && job.uses === undefined) throw new WorkflowError(`job "${key}": "runs-on" is missing`);
    const needs = job.needs === undefined ? [] : strings(job.needs);
    if (!needs) throw new WorkflowError(`job "${key}": "needs" must be a job id or a list of them`);
    for (const n of needs) if (!(n in jobs)) throw new WorkflowError(`job "${key}" needs "${n}", which does not exist`);
  }
  // A cycle in `needs` would leave its jobs blocked forever.
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (key: string) => {
    if (state.get(key) === 'done') return;
    if (state.get(key) === 'visiting') throw new WorkflowError(`job "${key}" needs itself (a cycle in "needs")`);
    state.set(key, 'visiting');
    for (const n of strings((jobs[key] as Json).needs) ?? []) visit(n);
    state.set(key, 'done');
  };
  for (const key of Object.keys(jobs)) visit(key);
  return { name: typeof doc.name === 'string' && doc.name ? doc.name : '', on, doc };
}

// --- filters -------------------------------------------------------------------------------------

/**
 * GitHub's filter pattern: `*` is any run without `/`, `**` any run, `?` makes the character before it
 * optional, `+` repeats it, `[...]` is a class; everything else is literal.
 */
export function filterPattern(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        re += '.*';
        i++;
      } else re += '[^/]*';
    } else if ((c === '?' || c === '+') && re !== '' && !re.endsWith('*')) re += c;
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        re += `[${glob.slice(i + 1, end).replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${re}$`);
  } catch {
    return /$^/;
  }
}

/** Patterns in order, `!` negating: the last pattern that matches decides. */
function matchesList(patterns: string[], value: string): boolean {
  let hit = false;
  for (const p of patterns) {
    if (p.startsWith('!')) {
      if (filterPattern(p.slice(1)).test(value)) hit = false;
    } else if (filterPattern(p).test(value)) hit = true;
  }
  return hit;
}

export interface PushFacts {
  ref: string;
  /** The paths the push changed; undefined when they are not needed (no paths filter) or unknown. */
  paths?: string[];
}

/** Whether the workflow has a paths filter on push (then the push's changed paths must be read). */
export function needsPaths(wf: Workflow): boolean {
  const f = wf.on.push;
  return isMap(f) && ('paths' in f || 'paths-ignore' in f);
}

/** Whether a push of `ref` starts this workflow. */
export function matchesPush(wf: Workflow, facts: PushFacts): boolean {
  if (!('push' in wf.on)) return false;
  const f = isMap(wf.on.push) ? wf.on.push : {};
  const tag = facts.ref.startsWith('refs/tags/');
  const name = facts.ref.replace(/^refs\/(heads|tags)\//, '');
  const hasBranches = 'branches' in f || 'branches-ignore' in f;
  const hasTags = 'tags' in f || 'tags-ignore' in f;
  const [only, ignore] = tag ? ['tags', 'tags-ignore'] : ['branches', 'branches-ignore'];
  // Filtering only the other kind of ref means this kind never starts it.
  if (tag ? hasBranches && !hasTags : hasTags && !hasBranches) return false;
  if (only in f && !matchesList(strings(f[only]) ?? [], name)) return false;
  if (ignore in f && matchesList(strings(f[ignore]) ?? [], name)) return false;
  // Paths filters are not evaluated for tags.
  if (!tag && facts.paths) {
    if ('paths' in f && !facts.paths.some((p) => matchesList(strings(f.paths) ?? [], p))) return false;
    if ('paths-ignore' in f && facts.paths.length > 0 && facts.paths.every((p) => matchesList(strings(f['paths-ignore']) ?? [], p))) return false;
  }
  return true;
}

// --- jobs ----------------------------------------------------------------------------------------

type Combination = Record<string, unknown>;

/** A matrix's combinations: the product of its dimensions, minus `exclude`, plus or extended by `include`. */
export function expandMatrix(matrix: unknown): Combination[] {
  if (!isMap(matrix)) return [];
  const dims = Object.entries(matrix).filter(([k, v]) => k !== 'include' && k !== 'exclude' && Array.isArray(v)) as Array<[string, unknown[]]>;
  let combos: Combination[] = dims.length ? [{}] : [];
  for (const [k, values] of dims) combos = combos.flatMap((c) => values.map((v) => ({ ...c, [k]: v })));
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const excludes = Array.isArray(matrix.exclude) ? matrix.exclude.filter(isMap) : [];
  combos = combos.filter((c) => !excludes.some((e) => Object.entries(e).every(([k, v]) => same(c[k], v))));
  const dimKeys = new Set(dims.map(([k]) => k));
  const added: Combination[] = [];
  for (const inc of Array.isArray(matrix.include) ? matrix.include.filter(isMap) : []) {
    // An include extends every original combination whose own values it does not change (values other
    // includes added may be overwritten); one that extends none is a combination of its own.
    let extended = false;
    for (const c of combos) {
      if (Object.entries(inc).every(([k, v]) => !dimKeys.has(k) || same(c[k], v))) {
        Object.assign(c, Object.fromEntries(Object.entries(inc).filter(([k]) => !dimKeys.has(k))));
        extended = true;
      }
    }
    if (!extended) added.push({ ...inc });
  }
  return [...combos, ...added];
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** `${{ matrix.x }}` in a string, from one combination. */
function interpolate(s: string, combo: Combination | undefined): string {
  if (!combo) return s;
  return s.replace(/\$\{\{\s*matrix\.([\w-]+)\s*\}\}/g, (whole, key: string) => (key in combo ? show(combo[key]) : whole));
}

export function stepName(step: unknown, i: number): string {
  if (!isMap(step)) return `step ${i + 1}`;
  if (typeof step.name === 'string' && step.name) return step.name;
  if (typeof step.uses === 'string') return `Run ${step.uses}`;
  if (typeof step.run === 'string') return `Run ${step.run.split('\n')[0]!.trim()}`;
  return `step ${i + 1}`;
}

/** The jobs of a workflow, each matrix combination its own job, with the single-job workflow the runner gets. */
export function planJobs(wf: Workflow): PlannedJob[] {
  const jobs = wf.doc.jobs as Record<string, Json>;
  const out: PlannedJob[] = [];
  for (const [key, job] of Object.entries(jobs)) {
    const strategy = isMap(job.strategy) ? job.strategy : undefined;
    const combos = strategy ? expandMatrix(strategy.matrix) : [];
    for (const combo of combos.length ? combos : [undefined]) {
      const baseName = typeof job.name === 'string' && job.name ? interpolate(job.name, combo) : key;
      const name = combo && !(typeof job.name === 'string' && /\$\{\{\s*matrix\./.test(job.name)) ? `${baseName} (${Object.values(combo).map(show).join(', ')})` : baseName;
      const runsOn = (strings(job['runs-on']) ?? []).map((l) => interpolate(l, combo));
      const single: Json = { ...job, name, 'runs-on': runsOn.length === 1 ? runsOn[0] : runsOn };
      if (combo) single.strategy = { ...strategy, matrix: Object.fromEntries(Object.entries(combo).map(([k, v]) => [k, [v]])) };
      const reduced: Json = {};
      if (wf.name) reduced.name = wf.name;
      reduced.on = wf.doc.on;
      for (const k of ['env', 'defaults', 'permissions', 'concurrency', 'run-name']) if (k in wf.doc) reduced[k] = wf.doc[k];
      reduced.jobs = { [key]: single };
      out.push({
        jobId: key,
        name,
        needs: strings(job.needs) ?? [],
        runsOn,
        condition: typeof job.if === 'string' ? job.if.trim().replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, '$1') : typeof job.if === 'boolean' ? String(job.if) : '',
        payload: stringify(reduced),
        steps: Array.isArray(job.steps) ? job.steps.map(stepName) : [],
      });
    }
  }
  return out;
}

/**
 * Whether a job whose needs have all ended runs: by default only when every need succeeded; `always()`
 * runs it whatever they did, `failure()` only when one failed, `cancelled()` only when one was cancelled.
 */
export function runsAfterNeeds(condition: string, needResults: string[]): boolean {
  const failed = needResults.some((r) => r === 'failure');
  const cancelled = needResults.some((r) => r === 'cancelled');
  const c = condition.replace(/\s+/g, '');
  if (c.includes('always()')) return true;
  if (c === 'false') return false;
  if (c.includes('failure()')) return failed;
  if (c.includes('cancelled()')) return cancelled;
  return !failed && !cancelled && needResults.every((r) => r === 'success');
}

/** The cron expressions of `on: schedule` (entries without a string `cron` are ignored). */
export function scheduleCrons(wf: Workflow): string[] {
  const s = wf.on.schedule;
  if (!Array.isArray(s)) return [];
  return s.flatMap((e) => (isMap(e) && typeof e.cron === 'string' && e.cron.trim() ? [e.cron.trim()] : []));
}

export interface PullFacts {
  /** opened, reopened or synchronize. */
  action: string;
  baseBranch: string;
  /** The paths the pull request changes (from its merge base); undefined when not needed. */
  paths?: string[];
}

/** Whether `on: pull_request` takes this change: its types (default opened, synchronize, reopened), base branch filters and paths. */
export function matchesPullRequest(wf: Workflow, facts: PullFacts): boolean {
  if (!('pull_request' in wf.on)) return false;
  const f = isMap(wf.on.pull_request) ? wf.on.pull_request : {};
  const types = 'types' in f ? strings(f.types) ?? [] : ['opened', 'synchronize', 'reopened'];
  if (!types.includes(facts.action)) return false;
  if ('branches' in f && !matchesList(strings(f.branches) ?? [], facts.baseBranch)) return false;
  if ('branches-ignore' in f && matchesList(strings(f['branches-ignore']) ?? [], facts.baseBranch)) return false;
  if (facts.paths) {
    if ('paths' in f && !facts.paths.some((p) => matchesList(strings(f.paths) ?? [], p))) return false;
    if ('paths-ignore' in f && facts.paths.length > 0 && facts.paths.every((p) => matchesList(strings(f['paths-ignore']) ?? [], p))) return false;
  }
  return true;
}

/** Whether the workflow filters pull requests by paths (then their changed paths must be read). */
export function needsPullPaths(wf: Workflow): boolean {
  const f = wf.on.pull_request;
  return isMap(f) && ('paths' in f || 'paths-ignore' in f);
}
