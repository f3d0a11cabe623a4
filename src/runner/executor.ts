// The step executor: one job of a task, run on the host in its own work folder. `run:` steps go through
// bash (or the step's `shell:`), `uses:` steps through the built-in actions the caller passes (any other
// fails the step with a clear message), every `${{ }}` is evaluated over the job's contexts, `if:` decides
// whether a step runs, and $GITHUB_OUTPUT / $GITHUB_ENV / $GITHUB_PATH / $GITHUB_STEP_SUMMARY carry
// outputs, environment and path between steps. timeout-minutes and continue-on-error work on steps and
// the job; the abort signal (the server cancelled the job) stops the running step's whole process group.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { condition, ExpressionError, interpolate, interpolateDeep, show, type Scope, type Value } from './expressions.js';
import type { StepResult } from './reporter.js';

export interface TaskInput {
  id: number;
  workflowPayload: string;
  context: Record<string, unknown>;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  needs: Record<string, { result: string; outputs: Record<string, string> }>;
}

/** Where the job's reports go (the reporter). */
export interface JobSink {
  log(line: string): void;
  addMask(value: string): void;
  stepStart(index: number): void;
  stepEnd(index: number, result: StepResult): void;
}

export interface BuiltinCall {
  /** The step's `with:`, interpolated. */
  with: Record<string, string>;
  /** The step's environment (what a `run:` step would get). */
  env: Record<string, string>;
  workspace: string;
  temp: string;
  github: Record<string, unknown>;
  log(line: string): void;
  signal: AbortSignal;
}

/** A built-in action: answers its outputs; throws to fail the step. */
export type Builtin = (call: BuiltinCall) => Promise<Record<string, string> | void>;

export interface JobOptions {
  workDir: string;
  sink: JobSink;
  signal: AbortSignal;
  builtins: Record<string, Builtin>;
  runnerName: string;
}

type Json = Record<string, unknown>;
const isMap = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const stringMap = (v: unknown): Record<string, string> =>
  isMap(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x === null || x === undefined ? '' : typeof x === 'object' ? JSON.stringify(x) : String(x)])) : {};

/** A step's display name, as the server names it (services/actions/workflow.ts's stepName). */
export function stepTitle(step: unknown, i: number): string {
  if (!isMap(step)) return `step ${i + 1}`;
  if (typeof step.name === 'string' && step.name) return step.name;
  if (typeof step.uses === 'string') return `Run ${step.uses}`;
  if (typeof step.run === 'string') return `Run ${step.run.split('\n')[0]!.trim()}`;
  return `step ${i + 1}`;
}

/** Reads a $GITHUB_OUTPUT / $GITHUB_ENV file: `name=value` lines and `name<<DELIM` … `DELIM` blocks. */
export function parseKeyValueFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    const eq = line.indexOf('=');
    if (heredoc && (eq < 0 || eq > line.indexOf('<<'))) {
      const delim = heredoc[2]!.trim();
      const body: string[] = [];
      i++;
      while (i < lines.length && lines[i] !== delim) body.push(lines[i++]!);
      if (i >= lines.length) throw new Error(`Matching delimiter not found '${delim}'`);
      out[heredoc[1]!.trim()] = body.join('\n');
    } else if (eq > 0) {
      out[line.slice(0, eq)] = line.slice(eq + 1);
    } else {
      throw new Error(`Invalid format '${line}'`);
    }
  }
  return out;
}

const shells: Record<string, { cmd: string[]; ext: string }> = {
  bash: { cmd: ['bash', '--noprofile', '--norc', '-eo', 'pipefail', '{0}'], ext: '.sh' },
  sh: { cmd: ['sh', '-e', '{0}'], ext: '.sh' },
  python: { cmd: ['python3', '{0}'], ext: '.py' },
  node: { cmd: ['node', '{0}'], ext: '.js' },
};

function shellCommand(shell: string): { cmd: string[]; ext: string } {
  const known = shells[shell];
  if (known) return known;
  const parts = shell.trim().split(/\s+/);
  if (!parts.includes('{0}')) parts.push('{0}');
  return { cmd: parts, ext: '' };
}

type Outcome = 'success' | 'failure' | 'cancelled' | 'skipped';

interface StepRecord {
  outputs: Record<string, string>;
  outcome: Outcome;
  conclusion: Outcome;
}

/** Runs a process in its own process group; answers its exit code (killed: -1). Lines go to `line`. */
export function runProcess(
  argv: string[], opts: { cwd: string; env: Record<string, string>; signal: AbortSignal; timeoutMs?: number; line: (l: string) => void },
): Promise<{ code: number; timedOut: boolean; aborted: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let timedOut = false;
    let aborted = false;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const onAbort = () => {
      aborted = true;
      kill();
    };
    if (opts.signal.aborted) onAbort();
    else opts.signal.addEventListener('abort', onAbort, { once: true });
    const timer = opts.timeoutMs ? setTimeout(() => {
      timedOut = true;
      kill();
    }, opts.timeoutMs) : undefined;
    const pipe = (stream: NodeJS.ReadableStream) => {
      let buf = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buf += chunk;
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          opts.line(buf.slice(0, nl).replace(/\r$/, ''));
          buf = buf.slice(nl + 1);
        }
      });
      stream.on('end', () => {
        if (buf) opts.line(buf);
        buf = '';
      });
    };
    pipe(child.stdout!);
    pipe(child.stderr!);
    child.on('error', (err) => {
      opts.line(`${argv[0]}: ${err.message}`);
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      resolve({ code: code ?? -1, timedOut, aborted });
    });
  });
}

const minutes = (v: unknown, scope: Scope): number | undefined => {
  const raw = typeof v === 'string' ? interpolate(v, scope) : v;
  const n = Number(raw);
  return raw !== undefined && raw !== '' && Number.isFinite(n) && n > 0 ? n * 60_000 : undefined;
};

const truthyFlag = (v: unknown, scope: Scope): boolean => {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return ['true', '1'].includes(interpolate(v, scope).trim().toLowerCase());
  return false;
};

/** Runs the task's job; answers its result and its outputs. */
export async function runJob(task: TaskInput, opts: JobOptions): Promise<{ result: StepResult; outputs: Record<string, string> }> {
  const { sink, signal } = opts;
  const doc = parse(task.workflowPayload) as Json;
  const jobs = isMap(doc.jobs) ? doc.jobs : {};
  const [jobId, jobRaw] = Object.entries(jobs)[0] ?? ['', {}];
  const job = isMap(jobRaw) ? jobRaw : {};
  const steps = Array.isArray(job.steps) ? job.steps : [];
  const github = { ...task.context } as Record<string, unknown>;
  const token = String(github.token ?? task.secrets.GITEA_TOKEN ?? '');
  if (token) sink.addMask(token);

  const workspace = join(opts.workDir, 'workspace');
  const temp = join(opts.workDir, 'temp');
  const files = join(opts.workDir, 'files');
  for (const d of [workspace, temp, files]) mkdirSync(d, { recursive: true });
  const eventPath = join(files, 'event.json');
  writeFileSync(eventPath, JSON.stringify(github.event ?? {}));
  github.workspace = workspace;
  github.event_path = eventPath;
  github.action = '';

  const matrix: Record<string, Value> = {};
  const strategy = isMap(job.strategy) ? job.strategy : undefined;
  if (strategy && isMap(strategy.matrix)) {
    for (const [k, v] of Object.entries(strategy.matrix)) if (Array.isArray(v) && v.length === 1) matrix[k] = v[0] as Value;
  }
  const event = isMap(github.event) ? github.event : {};
  const inputs = (isMap(event.inputs) ? event.inputs : {}) as Record<string, Value>;
  const needs: Record<string, Value> = {};
  for (const [k, n] of Object.entries(task.needs)) needs[k] = { result: n.result, outputs: n.outputs };
  const stepsCtx: Record<string, Value> = {};
  const jobEnvExtra: Record<string, string> = {};
  const extraPath: string[] = [];
  const runnerCtx = { name: opts.runnerName, os: platform() === 'darwin' ? 'macOS' : platform() === 'win32' ? 'Windows' : 'Linux', arch: arch() === 'arm64' ? 'ARM64' : 'X64', temp, tool_cache: join(tmpdir(), 'anvil-runner-tool-cache') };
  const state = { failed: false, cancelled: signal.aborted };
  const envCtx: Record<string, string> = {};
  const scope: Scope = {
    contexts: {
      github: github as Value, env: envCtx, vars: task.vars, secrets: task.secrets, needs, steps: stepsCtx, matrix, inputs,
      job: { status: 'success' }, runner: runnerCtx, strategy: { 'fail-fast': true, 'max-parallel': 1, 'job-index': 0, 'job-total': 1 },
    },
    status: state,
  };
  const setEnv = (e: Record<string, string>) => {
    for (const k of Object.keys(envCtx)) delete envCtx[k];
    Object.assign(envCtx, e);
  };
  const onAbort = () => {
    state.cancelled = true;
  };
  signal.addEventListener('abort', onAbort, { once: true });

  sink.log(`runner: ${opts.runnerName} received task ${task.id} of job ${jobId}, be triggered by event: ${String(github.event_name ?? '')}`);
  sink.log('workflow prepared');

  const baseEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: process.env.HOME ?? temp,
    LANG: process.env.LANG ?? 'C.UTF-8',
    CI: 'true', GITHUB_ACTIONS: 'true', GITEA_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace, GITHUB_EVENT_PATH: eventPath, RUNNER_TEMP: temp, RUNNER_OS: runnerCtx.os, RUNNER_ARCH: runnerCtx.arch, RUNNER_NAME: opts.runnerName,
    RUNNER_TOOL_CACHE: runnerCtx.tool_cache,
    GITHUB_SHA: String(github.sha ?? ''), GITHUB_REF: String(github.ref ?? ''), GITHUB_REF_NAME: String(github.ref_name ?? ''), GITHUB_REF_TYPE: String(github.ref_type ?? ''),
    GITHUB_HEAD_REF: String(github.head_ref ?? ''), GITHUB_BASE_REF: String(github.base_ref ?? ''),
    GITHUB_REPOSITORY: String(github.repository ?? ''), GITHUB_REPOSITORY_OWNER: String(github.repository_owner ?? ''),
    GITHUB_SERVER_URL: String(github.server_url ?? ''), GITHUB_API_URL: String(github.api_url ?? ''), GITHUB_GRAPHQL_URL: '',
    GITHUB_RUN_ID: String(github.run_id ?? ''), GITHUB_RUN_NUMBER: String(github.run_number ?? ''), GITHUB_RUN_ATTEMPT: String(github.run_attempt ?? ''),
    GITHUB_JOB: jobId, GITHUB_EVENT_NAME: String(github.event_name ?? ''), GITHUB_ACTOR: String(github.actor ?? ''), GITHUB_WORKFLOW: String(github.workflow ?? ''),
    GITHUB_RETENTION_DAYS: String(github.retention_days ?? ''),
    ACTIONS_RUNTIME_TOKEN: String(github.gitea_runtime_token ?? token), ACTIONS_RUNTIME_URL: `${String(github.server_url ?? '')}/api/actions_pipeline/`,
    ACTIONS_RESULTS_URL: `${String(github.server_url ?? '')}/`,
  };

  const jobTimeout = minutes(job['timeout-minutes'], scope);
  const jobTimer = jobTimeout ? setTimeout(() => {
    sink.log(`The job running on runner ${opts.runnerName} has exceeded the maximum execution time of ${jobTimeout / 60_000} minutes.`);
    state.cancelled = true;
    jobAbort.abort();
  }, jobTimeout) : undefined;
  const jobAbort = new AbortController();
  signal.addEventListener('abort', () => jobAbort.abort(), { once: true });
  if (signal.aborted) jobAbort.abort();

  const defaults = isMap(job.defaults) && isMap(job.defaults.run) ? job.defaults.run : isMap(doc.defaults) && isMap(doc.defaults.run) ? doc.defaults.run : {};
  let jobFailed = false;
  try {
    for (const [i, stepRaw] of steps.entries()) {
      const step = isMap(stepRaw) ? stepRaw : {};
      const title = stepTitle(step, i);
      const stepKey = typeof step.id === 'string' && step.id ? step.id : `__${i}`;
      setEnv({ ...stringMap(doc.env), ...stringMap(job.env), ...jobEnvExtra });
      scope.contexts.job = { status: state.cancelled ? 'cancelled' : state.failed ? 'failure' : 'success' };
      let run: boolean;
      try {
        run = condition(step.if as string | boolean | undefined, scope);
      } catch (err) {
        sink.stepStart(i);
        sink.log(`::error::${title}: ${(err as Error).message}`);
        sink.stepEnd(i, 'failure');
        state.failed = true;
        stepsCtx[stepKey] = { outputs: {}, outcome: 'failure', conclusion: 'failure' };
        continue;
      }
      if (!run) {
        sink.stepStart(i);
        sink.stepEnd(i, 'skipped');
        stepsCtx[stepKey] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' };
        continue;
      }
      sink.stepStart(i);
      const record = await runStep(step, i, title);
      stepsCtx[stepKey] = record as unknown as Value;
      if (record.conclusion === 'failure') state.failed = true;
      sink.stepEnd(i, record.conclusion === 'cancelled' ? 'cancelled' : record.conclusion === 'failure' ? 'failure' : 'success');
    }
  } finally {
    if (jobTimer) clearTimeout(jobTimer);
    signal.removeEventListener('abort', onAbort);
  }
  jobFailed = state.failed;
  let result: StepResult = state.cancelled ? 'cancelled' : jobFailed ? 'failure' : 'success';
  if (result === 'failure' && truthyFlag(job['continue-on-error'], scope)) result = 'success';
  const outputs: Record<string, string> = {};
  if (isMap(job.outputs)) {
    for (const [k, v] of Object.entries(job.outputs)) {
      try {
        outputs[k] = typeof v === 'string' ? interpolate(v, scope) : show(v as Value);
      } catch (err) {
        sink.log(`failed to evaluate output ${k}: ${(err as Error).message}`);
      }
    }
  }
  sink.log(result === 'success' ? '🏁  Job succeeded' : result === 'cancelled' ? '🏁  Job cancelled' : '🏁  Job failed');
  return { result, outputs };

  async function runStep(step: Json, i: number, title: string): Promise<StepRecord> {
    const record: StepRecord = { outputs: {}, outcome: 'success', conclusion: 'success' };
    const continueOnError = truthyFlag(step['continue-on-error'], scope);
    const fail = (why?: string): StepRecord => {
      if (why) sink.log(`::error::${why}`);
      record.outcome = 'failure';
      record.conclusion = continueOnError ? 'success' : 'failure';
      return record;
    };
    const outputFile = join(files, `output_${i}`);
    const envFile = join(files, `env_${i}`);
    const pathFile = join(files, `path_${i}`);
    const summaryFile = join(files, `step_summary_${i}`);
    for (const f of [outputFile, envFile, pathFile, summaryFile]) writeFileSync(f, '');
    let stepEnv: Record<string, string>;
    try {
      stepEnv = { ...envCtx, ...stringMap(interpolateDeep(stringMap(step.env), scope)) };
    } catch (err) {
      return fail(`${title}: ${(err as Error).message}`);
    }
    setEnv(stepEnv);
    const procEnv: Record<string, string> = {
      ...baseEnv, ...stepEnv,
      PATH: [...extraPath, baseEnv.PATH!].join(':'),
      GITHUB_OUTPUT: outputFile, GITHUB_ENV: envFile, GITHUB_PATH: pathFile, GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ACTION: typeof step.id === 'string' ? step.id : String(i),
    };
    const timeoutMs = minutes(step['timeout-minutes'], scope);
    try {
      if (typeof step.uses === 'string') {
        sink.log(`⭐ Run Main ${title}`);
        const uses = step.uses.trim();
        const name = uses.split('@')[0]!.toLowerCase();
        const builtin = opts.builtins[name];
        if (!builtin) return fail(`${uses}: this runner does not download actions; only the built-in actions/checkout, actions/upload-artifact and actions/download-artifact can be used`);
        const withArgs = stringMap(interpolateDeep(stringMap(step.with), scope));
        const ctl = new AbortController();
        const onJobAbort = () => ctl.abort();
        jobAbort.signal.addEventListener('abort', onJobAbort, { once: true });
        const timer = timeoutMs ? setTimeout(() => ctl.abort(), timeoutMs) : undefined;
        try {
          const out = await builtin({ with: withArgs, env: procEnv, workspace, temp, github, log: (l) => sink.log(l), signal: ctl.signal });
          record.outputs = out ?? {};
        } catch (err) {
          if (jobAbort.signal.aborted) {
            record.outcome = record.conclusion = 'cancelled';
            return record;
          }
          return fail(`${uses}: ${(err as Error).message}`);
        } finally {
          if (timer) clearTimeout(timer);
          jobAbort.signal.removeEventListener('abort', onJobAbort);
        }
        return record;
      }
      if (typeof step.run !== 'string') return fail(`${title}: a step needs either run or uses`);
      const script = interpolate(step.run, scope);
      const shellName = typeof step.shell === 'string' ? interpolate(step.shell, scope) : typeof defaults.shell === 'string' ? defaults.shell : 'bash';
      const { cmd, ext } = shellCommand(shellName);
      const scriptFile = join(temp, `step_${i}${ext}`);
      writeFileSync(scriptFile, script);
      const wd = typeof step['working-directory'] === 'string' ? interpolate(step['working-directory'], scope) : typeof defaults['working-directory'] === 'string' ? defaults['working-directory'] : '';
      const cwd = wd ? (isAbsolute(wd) ? wd : join(workspace, wd)) : workspace;
      sink.log(`⭐ Run Main ${title}`);
      const argv = cmd.map((p) => p.replace('{0}', scriptFile));
      const out = await runProcess(argv, {
        cwd, env: procEnv, signal: jobAbort.signal, timeoutMs,
        line: (l) => {
          const mask = /^::add-mask::(.*)$/.exec(l);
          if (mask) {
            sink.addMask(mask[1]!);
            return;
          }
          const setOutput = /^::set-output name=([^:]+)::(.*)$/.exec(l);
          if (setOutput) record.outputs[setOutput[1]!] = setOutput[2]!;
          sink.log(l);
        },
      });
      if (out.aborted) {
        sink.log(state.cancelled && !signal.aborted ? 'the job ran out of time' : 'the step was cancelled');
        record.outcome = record.conclusion = 'cancelled';
        state.cancelled = true;
        return record;
      }
      collect();
      if (out.timedOut) return fail(`The action '${title}' has timed out after ${timeoutMs! / 60_000} minutes.`);
      if (out.code !== 0) return fail(`Process completed with exit code ${out.code}.`);
      return record;
    } finally {
      try {
        collect();
      } catch (err) {
        sink.log(`::error::${(err as Error).message}`);
      }
    }

    function collect() {
      Object.assign(record.outputs, parseKeyValueFile(readFileSync(outputFile, 'utf8')));
      Object.assign(jobEnvExtra, parseKeyValueFile(readFileSync(envFile, 'utf8')));
      for (const p of readFileSync(pathFile, 'utf8').split(/\r?\n/).map((l) => l.trim()).filter(Boolean).reverse()) if (!extraPath.includes(p)) extraPath.unshift(p);
      for (const f of [outputFile, envFile, pathFile]) writeFileSync(f, '');
    }
  }
}

export { ExpressionError };
