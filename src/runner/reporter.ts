// A task's reports to the server, as act_runner's reporter makes them: every log line is a row (secrets
// masked as `***`), each step's rows are the range [logIndex, logIndex+logLength), and every second the
// rows not yet acknowledged go up with UpdateLog and the task's state (steps, result, outputs not yet
// sent) with UpdateTask. An UpdateTask answered `cancelled` cancels the task. Closing sends the last
// rows with noMore until all are acknowledged, then the final state.
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  LogRowSchema, Result, StepStateSchema, TaskStateSchema, type LogRow, type TaskState,
} from '../../generated/proto/runner/v1/messages_pb.js';
import type { RunnerApi } from './client.js';

export type StepResult = 'success' | 'failure' | 'cancelled' | 'skipped';

export const resultCode: Record<StepResult, Result> = {
  success: Result.SUCCESS, failure: Result.FAILURE, cancelled: Result.CANCELLED, skipped: Result.SKIPPED,
};

/** Replaces every secret (each line of a multi-line one) in a log line with `***`. */
export class Masker {
  private values: string[] = [];

  add(value: string): void {
    for (const part of value.split(/\r?\n/)) {
      const v = part.trim() === '' ? '' : part;
      if (v && !this.values.includes(v)) this.values.push(v);
    }
    // Longest first: a secret containing another is masked whole.
    this.values.sort((a, b) => b.length - a.length);
  }

  mask(line: string): string {
    let out = line;
    for (const v of this.values) out = out.split(v).join('***');
    return out;
  }
}

export class Reporter {
  readonly masker = new Masker();
  private readonly state: TaskState;
  /** Rows not acknowledged yet; `acked` rows came before them. */
  private rows: LogRow[] = [];
  private acked = 0;
  private readonly outputs = new Map<string, string>();
  private readonly sent = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private busy: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly api: RunnerApi,
    taskId: bigint,
    secrets: Record<string, string>,
    private readonly cancel: () => void,
  ) {
    for (const v of Object.values(secrets)) this.masker.add(v);
    this.state = create(TaskStateSchema, { id: taskId, startedAt: timestampFromDate(new Date()) });
  }

  /** The job's steps, by position (the ids the server made from the workflow). */
  resetSteps(n: number): void {
    this.state.steps = Array.from({ length: n }, (_, i) => create(StepStateSchema, { id: BigInt(i) }));
  }

  get total(): number {
    return this.acked + this.rows.length;
  }

  log(line: string): void {
    for (const l of line.replace(/\r?\n$/, '').split(/\r?\n/)) {
      this.rows.push(create(LogRowSchema, { time: timestampFromDate(new Date()), content: this.masker.mask(l) }));
    }
  }

  stepStart(i: number): void {
    const s = this.state.steps[i];
    if (!s) return;
    s.startedAt = timestampFromDate(new Date());
    s.logIndex = BigInt(this.total);
  }

  stepEnd(i: number, result: StepResult): void {
    const s = this.state.steps[i];
    if (!s) return;
    s.result = resultCode[result];
    s.stoppedAt = timestampFromDate(new Date());
    if (!s.startedAt) {
      s.startedAt = s.stoppedAt;
      s.logIndex = BigInt(this.total);
    }
    s.logLength = BigInt(this.total) - s.logIndex;
  }

  setOutputs(outputs: Record<string, string>): void {
    for (const [k, v] of Object.entries(outputs)) if (!this.outputs.has(k)) this.outputs.set(k, v);
  }

  /** The job's result: steps never run are cancelled (skipped when the job was), as act_runner does. */
  setResult(result: StepResult): void {
    for (const s of this.state.steps) {
      if (s.result === Result.UNSPECIFIED) {
        s.result = result === 'skipped' ? Result.SKIPPED : Result.CANCELLED;
        s.stoppedAt = timestampFromDate(new Date());
        s.logIndex = BigInt(this.total);
        s.logLength = 0n;
      }
    }
    this.state.result = resultCode[result];
    this.state.stoppedAt = timestampFromDate(new Date());
  }

  /** Reports every second until the task ends. */
  runDaemon(intervalMs = 1000): void {
    const tick = () => {
      if (this.closed) return;
      void this.serial(async () => {
        await this.reportLog(false);
        await this.reportState();
      }).catch(() => undefined).finally(() => {
        if (!this.closed && this.state.result === Result.UNSPECIFIED) this.timer = setTimeout(tick, intervalMs);
      });
    };
    this.timer = setTimeout(tick, intervalMs);
  }

  private serial(fn: () => Promise<void>): Promise<void> {
    const next = this.busy.then(fn, fn);
    this.busy = next.catch(() => undefined);
    return next;
  }

  private async reportLog(noMore: boolean): Promise<void> {
    const rows = this.rows;
    const res = await this.api.updateLog({ taskId: this.state.id, index: BigInt(this.acked), rows, noMore });
    const ack = Number(res.ackIndex);
    if (ack < this.acked) throw new Error(`submitted logs are lost: the server acknowledged ${ack} of ${this.acked}`);
    this.rows = this.rows.slice(ack - this.acked);
    this.acked = ack;
    if (noMore && this.rows.length > 0) throw new Error('not all logs are submitted');
  }

  private async reportState(): Promise<void> {
    const outputs: Record<string, string> = {};
    for (const [k, v] of this.outputs) if (!this.sent.has(k)) outputs[k] = v;
    const res = await this.api.updateTask({ state: this.state, outputs });
    for (const k of res.sentOutputs) this.sent.add(k);
    if (res.state?.result === Result.CANCELLED) this.cancel();
  }

  /**
   * The end of the task, with the job's `result`: with none (the runner itself failed) (the runner itself failed), steps not ended are cancelled
   * and the task fails with `lastWords` as its last row. Retries until the log and state are through.
   */
  async close(lastWords = '', result?: StepResult): Promise<void> {
    // The daemon stops first: the result goes up only after the last log rows, so whoever sees the
    // task ended finds its whole log.
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.busy;
    if (result) this.setResult(result);
    if (this.state.result === Result.UNSPECIFIED) {
      if (!lastWords) lastWords = 'Early termination';
      for (const s of this.state.steps) {
        if (s.result === Result.UNSPECIFIED) {
          s.result = Result.CANCELLED;
          s.stoppedAt = timestampFromDate(new Date());
        }
      }
      this.state.result = Result.FAILURE;
      this.state.stoppedAt = timestampFromDate(new Date());
    }
    if (lastWords) this.log(lastWords);
    await retry(() => this.reportLog(true));
    await retry(() => this.reportState());
  }
}

async function retry(fn: () => Promise<void>, attempts = 10): Promise<void> {
  let wait = 100;
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= attempts) throw err;
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(wait * 2, 3000);
    }
  }
}
