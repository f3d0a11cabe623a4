// The Actions trigger worker: claims queued pushes with FOR UPDATE SKIP LOCKED and a lease (several
// processes may run it; a trigger whose worker died is taken again when its lease ends) and turns each
// into workflow runs. The runs and the trigger's deletion are one transaction, so each push makes its
// runs once.
import { and, asc, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import { actionTriggers } from '../db/schema/index.js';
import type { ServiceDeps } from '../services/context.js';
import type { ActionService } from '../services/actions/runs.js';
import { triggerQueued } from '../services/actions/triggers.js';

const batchSize = 5;

export class ActionTriggerWorker {
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private running: Promise<unknown> = Promise.resolve();
  private readonly poke = () => this.schedule(20);
  private readonly log: Logger;

  constructor(private readonly deps: ServiceDeps, private readonly actions: ActionService) {
    this.log = deps.log.child({ worker: 'actions' });
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    triggerQueued.on('queued', this.poke);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    triggerQueued.off('queued', this.poke);
    if (this.timer) clearTimeout(this.timer);
    await this.running.catch(() => undefined);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.running.then(() => this.loop());
    }, ms);
  }

  private async loop(): Promise<void> {
    let n = 0;
    try {
      n = await this.runOnce();
    } catch (err) {
      this.log.warn({ err }, 'actions trigger round failed');
    }
    this.schedule(n === batchSize ? 0 : this.deps.config.actions.pollIntervalMs);
  }

  /** Claims and processes one batch of triggers, oldest first; answers how many it took. */
  async runOnce(): Promise<number> {
    const { db, config } = this.deps;
    const now = new Date();
    const due = db
      .select({ id: actionTriggers.id })
      .from(actionTriggers)
      .where(or(isNull(actionTriggers.leaseUntil), lt(actionTriggers.leaseUntil, now)))
      .orderBy(asc(actionTriggers.id))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(actionTriggers)
      .set({ leaseUntil: new Date(now.getTime() + config.actions.leaseMs) })
      .where(and(inArray(actionTriggers.id, due)))
      .returning({ id: actionTriggers.id });
    // In order: runs of one repository are numbered in the order of its pushes.
    for (const t of claimed.sort((a, b) => a.id - b.id)) {
      try {
        await this.actions.processTrigger(t.id);
      } catch (err) {
        // Left leased: retried when the lease ends (a repository that went away is dropped then).
        this.log.warn({ err, trigger: t.id }, 'actions trigger failed');
      }
    }
    return claimed.length;
  }
}
