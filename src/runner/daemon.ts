// The built-in runner's daemon: registers once with a registration token (its credentials kept in
// `<dir>/.runner`, as act_runner keeps them), declares its labels, then polls FetchTask and runs each
// task it takes in its own work folder (`<dir>/work/<task id>`, removed afterwards), one at a time.
// A client of the server like act_runner: it talks to it only over the runner protocol (and git over
// HTTP and the artifact protocol for its built-in actions).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Code, ConnectError } from '@connectrpc/connect';
import { parse } from 'yaml';
import type { Task } from '../../generated/proto/runner/v1/messages_pb.js';
import { Result } from '../../generated/proto/runner/v1/messages_pb.js';
import { builtinActions } from './builtins.js';
import { runnerApi, type RunnerApi } from './client.js';
import { runJob, type TaskInput } from './executor.js';
import { Reporter, type StepResult } from './reporter.js';

export const runnerVersion = 'anvil-runner-1.0.0';

export interface RunnerOptions {
  /** The server's root URL. */
  instance: string;
  /** Where the credentials and the work folders live. */
  dir: string;
  /** Needed only for the first start (no `.runner` file yet). */
  registrationToken?: string;
  name: string;
  labels: string[];
  /** How often to ask for a task (act_runner: 2 s). */
  fetchIntervalMs?: number;
  /** How often a running task reports (act_runner: 1 s). */
  reportIntervalMs?: number;
  log?: (msg: string) => void;
}

interface Saved {
  id: number;
  uuid: string;
  token: string;
  name: string;
  address: string;
  labels: string[];
}

const resultName: Record<number, string> = {
  [Result.SUCCESS]: 'success', [Result.FAILURE]: 'failure', [Result.CANCELLED]: 'cancelled', [Result.SKIPPED]: 'skipped', [Result.UNSPECIFIED]: '',
};

export interface RunningRunner {
  /** Stops polling, cancels the running task and waits for its last report. */
  stop(): Promise<void>;
  readonly id: number;
  readonly uuid: string;
}

export async function startRunner(opts: RunnerOptions): Promise<RunningRunner> {
  const say = opts.log ?? (() => {});
  mkdirSync(opts.dir, { recursive: true });
  const file = join(opts.dir, '.runner');
  let saved: Saved | undefined = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Saved) : undefined;
  if (saved && saved.address !== opts.instance) saved = undefined;
  const register = async (): Promise<Saved> => {
    if (!opts.registrationToken) throw new Error('the runner is not registered: give it a registration token');
    const { runner } = await runnerApi(opts.instance).register({ name: opts.name, token: opts.registrationToken, version: runnerVersion, labels: opts.labels });
    const fresh = { id: Number(runner!.id), uuid: runner!.uuid, token: runner!.token, name: opts.name, address: opts.instance, labels: opts.labels };
    writeFileSync(file, JSON.stringify(fresh, null, 2), { mode: 0o600 });
    say(`runner registered: ${fresh.name} (id ${fresh.id})`);
    return fresh;
  };
  saved ??= await register();
  let api = runnerApi(opts.instance, { uuid: saved.uuid, token: saved.token });
  try {
    await api.declare({ version: runnerVersion, labels: opts.labels });
  } catch (err) {
    // The server forgot this runner (deleted, or a fresh database): register again when we can.
    if (!(err instanceof ConnectError && err.code === Code.Unauthenticated && opts.registrationToken)) throw err;
    saved = await register();
    api = runnerApi(opts.instance, { uuid: saved.uuid, token: saved.token });
    await api.declare({ version: runnerVersion, labels: opts.labels });
  }
  say(`runner ${saved.name} declared labels ${opts.labels.join(', ')}`);

  let stopping = false;
  let current: { abort: AbortController; done: Promise<void> } | undefined;
  let wake: (() => void) | undefined;
  let version = 0n;
  const loop = (async () => {
    while (!stopping) {
      try {
        const res = await api.fetchTask({ tasksVersion: version });
        version = res.tasksVersion;
        if (res.task) {
          // As act_runner does: after a task, ask with version 0 so that the server searches again. The
          // version says only that something changed since the last poll; one change (a push, a matrix)
          // can make several jobs, and this runner took just one of them.
          version = 0n;
          const abort = new AbortController();
          const done = runTask(api, res.task, abort, opts, saved!.name, say);
          current = { abort, done };
          await done;
          current = undefined;
          continue;
        }
      } catch (err) {
        say(`fetching a task failed: ${err instanceof ConnectError ? err.rawMessage : (err as Error).message}`);
      }
      await new Promise<void>((r) => {
        const t = setTimeout(r, opts.fetchIntervalMs ?? 2000);
        wake = () => {
          clearTimeout(t);
          r();
        };
      });
      wake = undefined;
    }
  })();
  return {
    id: saved.id,
    uuid: saved.uuid,
    async stop() {
      stopping = true;
      wake?.();
      current?.abort.abort();
      await current?.done;
      await loop;
    },
  };
}

async function runTask(api: RunnerApi, task: Task, abort: AbortController, opts: RunnerOptions, name: string, say: (m: string) => void): Promise<void> {
  const reporter = new Reporter(api, task.id, task.secrets, () => abort.abort());
  const input: TaskInput = {
    id: Number(task.id),
    workflowPayload: new TextDecoder().decode(task.workflowPayload ?? new Uint8Array()),
    context: (task.context ?? {}) as Record<string, unknown>,
    secrets: task.secrets,
    vars: task.vars,
    needs: Object.fromEntries(Object.entries(task.needs).map(([k, n]) => [k, { result: resultName[n.result] ?? '', outputs: n.outputs }])),
  };
  const workDir = join(opts.dir, 'work', String(task.id));
  say(`task ${task.id} started`);
  let lastWords = '';
  let jobResult: StepResult | undefined;
  try {
    const doc = parse(input.workflowPayload) as { jobs?: Record<string, { steps?: unknown[] }> };
    reporter.resetSteps(Object.values(doc.jobs ?? {})[0]?.steps?.length ?? 0);
    reporter.runDaemon(opts.reportIntervalMs ?? 1000);
    const { result, outputs } = await runJob(input, {
      workDir, signal: abort.signal, runnerName: name, builtins: builtinActions(),
      sink: {
        log: (l) => reporter.log(l), addMask: (v) => reporter.masker.add(v), stepStart: (i) => reporter.stepStart(i), stepEnd: (i, r) => reporter.stepEnd(i, r),
      },
    });
    reporter.setOutputs(outputs);
    jobResult = result;
    say(`task ${task.id} ended: ${result}`);
  } catch (err) {
    lastWords = (err as Error).message;
    say(`task ${task.id} failed: ${lastWords}`);
  } finally {
    try {
      await reporter.close(lastWords, jobResult);
    } catch (err) {
      say(`task ${task.id}: the last report failed: ${(err as Error).message}`);
    }
    rmSync(workDir, { recursive: true, force: true });
  }
}
