// The cron scheduler: runs each enabled task at its schedule's times, and the start-up tasks once at
// start. Every process on a database may run it: a task's lock (CronService.run) lets one run at a time
// and the others skip. A run that is due while the same task still runs here is skipped, as in Gitea.
import type { Logger } from 'pino';
import type { CronService, CronTask } from '../services/admin/cron.js';

/** setTimeout's longest wait is about 24.8 days; a later run is waited for in steps. */
const maxWaitMs = 2 ** 31 - 1;

export class CronScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<unknown>>();
  private stopped = true;
  private readonly log: Logger;

  constructor(
    private readonly cron: CronService,
    log: Logger,
  ) {
    this.log = log.child({ worker: 'cron' });
  }

  start(): void {
    this.stopped = false;
    for (const task of this.cron.tasks) {
      if (!task.enabled) continue;
      if (task.runAtStart) this.fire(task, undefined);
      this.plan(task, new Date());
    }
    this.log.info({ tasks: this.cron.tasks.filter((t) => t.enabled).map((t) => t.name) }, 'cron scheduler started');
  }

  private plan(task: CronTask, after: Date): void {
    if (this.stopped) return;
    const next = task.plan.next(after);
    const wait = next.getTime() - Date.now();
    const timer = setTimeout(() => {
      if (wait > maxWaitMs) return this.plan(task, after); // not due yet: wait again
      this.fire(task, next);
      this.plan(task, next);
    }, Math.max(0, Math.min(wait, maxWaitMs)));
    timer.unref();
    this.timers.set(task.name, timer);
  }

  /** `planned`: the scheduled moment (each runs once across processes); none for the start-up run. */
  private fire(task: CronTask, planned: Date | undefined): void {
    const run = this.cron.run(task.name, { planned }).catch((err) => this.log.error({ task: task.name, err: { message: (err as Error).message } }, 'cron task could not run'));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** No new runs; waits for the runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.all([...this.running]);
  }
}
