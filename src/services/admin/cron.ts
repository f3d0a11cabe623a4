// The cron tasks: their effective settings (Gitea's defaults, overridden by CRON_<TASK>_*), their shared
// record (cron_tasks: runs, last start, result, duration) and running one. One run of a task at a time
// across every process on the database (TryLock); a run that finds the task running does nothing and
// is counted as skipped.
import { asc, eq, sql } from 'drizzle-orm';
import { localTryLock, type TryLock } from '../../db/client.js';
import { cronTasks, users, type CronTaskRow, type UserRow } from '../../db/schema/index.js';
import { ConfigError } from '../../config.js';
import type { ServiceDeps } from '../context.js';
import { NotFound } from '../errors.js';
import { parseSchedule, ScheduleError, type Schedule } from './cronSchedule.js';
import type { CronTaskDef } from './cronTasks.js';

export interface CronTask extends CronTaskDef {
  /** The parsed schedule (present even when disabled, so that enabling it later needs no new check). */
  plan: Schedule;
}

export interface CronTaskView {
  name: string;
  /** `-` when disabled (as Gitea shows it). */
  schedule: string;
  next: Date | null;
  prev: Date | null;
  execTimes: number;
}

export type RunOutcome = { ran: true; status: 'ok' | 'failed'; message: string; durationMs: number } | { ran: false };

export class CronService {
  readonly tasks: CronTask[];
  private readonly byName: Map<string, CronTask>;
  private readonly tryLock: TryLock;

  constructor(
    private readonly deps: ServiceDeps,
    defs: CronTaskDef[],
  ) {
    this.tryLock = deps.tryLock ?? localTryLock();
    const overrides = deps.config.cron.tasks;
    const unknown = Object.keys(overrides).filter((n) => !defs.some((d) => d.name === n));
    if (unknown.length) throw new ConfigError(`CRON_* settings name no task: ${unknown.join(', ')} (tasks: ${defs.map((d) => d.name).join(', ')})`);
    this.tasks = defs.map((d) => {
      const o = overrides[d.name] ?? {};
      const schedule = o.schedule ?? d.schedule;
      try {
        return { ...d, schedule, enabled: o.enabled ?? d.enabled, runAtStart: o.runAtStart ?? d.runAtStart, plan: parseSchedule(schedule) };
      } catch (err) {
        if (err instanceof ScheduleError) throw new ConfigError(`CRON_${d.name.toUpperCase()}_SCHEDULE: ${err.message}`);
        throw err;
      }
    });
    this.byName = new Map(this.tasks.map((t) => [t.name, t]));
  }

  task(name: string): CronTask {
    const t = this.byName.get(name);
    if (!t) throw new NotFound(`cron task "${name}" does not exist`);
    return t;
  }

  /** Every task in registration order, with its record; disabled ones show `-` and no next run, as in Gitea. */
  async list(now = new Date()): Promise<CronTaskView[]> {
    const rows = new Map((await this.deps.db.select().from(cronTasks)).map((r) => [r.name, r]));
    return this.tasks.map((t) => {
      const row = rows.get(t.name);
      return {
        name: t.name,
        schedule: t.enabled ? t.schedule : '-',
        next: t.enabled ? t.plan.next(now) : null,
        // Gitea shows a manual run as the previous one even for a task the scheduler does not run.
        prev: row?.prevAt ?? null,
        execTimes: row?.execTimes ?? 0,
      };
    });
  }

  async record(name: string): Promise<CronTaskRow | undefined> {
    const [row] = await this.deps.db.select().from(cronTasks).where(eq(cronTasks.name, name));
    return row;
  }

  /**
   * Runs the task now unless it is running somewhere (then: counted as skipped, nothing done). A scheduled
   * run names its moment (`planned`): the first process to claim a moment runs it, the others skip it.
   * A failing task is recorded and logged as failed; it does not throw.
   */
  async run(name: string, opts: { doer?: UserRow; planned?: Date } = {}): Promise<RunOutcome> {
    const task = this.task(name);
    const { db, log } = this.deps;
    const skip = async (why: string) => {
      await db.insert(cronTasks).values({ name, skippedTimes: 1 })
        .onConflictDoUpdate({ target: cronTasks.name, set: { skippedTimes: sql`${cronTasks.skippedTimes} + 1` } });
      log.info({ task: name }, `cron task ${why}; this run is skipped`);
      return { ran: false } as const;
    };
    if (opts.planned) {
      const claimed = await db.insert(cronTasks).values({ name, plannedAt: opts.planned })
        .onConflictDoUpdate({ target: cronTasks.name, set: { plannedAt: opts.planned }, setWhere: sql`${cronTasks.plannedAt} is null or ${cronTasks.plannedAt} < ${opts.planned.toISOString()}::timestamptz` })
        .returning({ name: cronTasks.name });
      if (claimed.length === 0) return skip(`was run for ${opts.planned.toISOString()} by another process`);
    }
    const release = await this.tryLock(`cron:${name}`);
    if (!release) return skip('is already running');
    try {
      const started = new Date();
      await db.insert(cronTasks).values({ name, execTimes: 1, prevAt: started })
        .onConflictDoUpdate({ target: cronTasks.name, set: { execTimes: sql`${cronTasks.execTimes} + 1`, prevAt: started } });
      let status: 'ok' | 'failed' = 'ok';
      let message: string;
      try {
        message = await task.run({ doer: async () => opts.doer ?? (await this.firstAdmin()) });
      } catch (err) {
        status = 'failed';
        message = (err as Error).message;
        log.error({ task: name, err: { message: (err as Error).message, stack: (err as Error).stack } }, 'cron task failed');
      }
      const durationMs = Date.now() - started.getTime();
      await db.update(cronTasks).set({ lastStatus: status, lastMessage: message, lastDurationMs: durationMs }).where(eq(cronTasks.name, name));
      if (status === 'ok') log.info({ task: name, durationMs, result: message }, 'cron task finished');
      return { ran: true, status, message, durationMs };
    } finally {
      await release();
    }
  }

  private async firstAdmin(): Promise<UserRow> {
    const [admin] = await this.deps.db.select().from(users).where(eq(users.isAdmin, true)).orderBy(asc(users.id)).limit(1);
    if (!admin) throw new Error('no site administrator to act as');
    return admin;
  }
}
