// The Actions trigger worker: claims queued pushes with FOR UPDATE SKIP LOCKED and a lease (several
// processes may run it; a trigger whose worker died is taken again when its lease ends) and turns each
// into workflow runs. The runs and the trigger's deletion are one transaction, so each push makes its
// runs once.
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { actionTriggers } from '../db/schema/index.js';
import type { ServiceDeps } from '../services/context.js';
import type { ActionService } from '../services/actions/runs.js';
import { triggerQueued } from '../services/actions/triggers.js';
import { PollingWorker } from './pollingWorker.js';

const batchSize = 5;

/** A trigger that fails this many times is kept as failed (`failed_at`, `error`) and never claimed again. */
export const maxTriggerAttempts = 5;

export class ActionTriggerWorker extends PollingWorker {
  constructor(private readonly deps: ServiceDeps, private readonly actions: ActionService) {
    super(deps.log.child({ worker: 'actions' }), triggerQueued, () => deps.config.actions.pollIntervalMs, batchSize);
  }

  /** Claims and processes one batch of triggers, oldest first; answers how many it took. */
  async runOnce(): Promise<number> {
    const { db, config } = this.deps;
    const now = new Date();
    const due = db
      .select({ id: actionTriggers.id })
      .from(actionTriggers)
      .where(and(isNull(actionTriggers.failedAt), or(isNull(actionTriggers.leaseUntil), lt(actionTriggers.leaseUntil, now))))
      .orderBy(asc(actionTriggers.id))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(actionTriggers)
      .set({ leaseUntil: new Date(now.getTime() + config.actions.leaseMs) })
      .where(inArray(actionTriggers.id, due))
      .returning();
    // In order: runs of one repository are numbered in the order of its pushes.
    for (const t of claimed.sort((a, b) => a.id - b.id)) {
      try {
        await this.actions.processTrigger(t);
      } catch (err) {
        // Left leased: retried when the lease ends (a repository that went away is dropped then), at most
        // maxTriggerAttempts times in all; then recorded as failed, with the reason, and left alone.
        const message = err instanceof Error ? err.message : String(err);
        const [row] = await db
          .update(actionTriggers)
          .set({
            attempts: sql`${actionTriggers.attempts} + 1`,
            failedAt: sql`case when ${actionTriggers.attempts} + 1 >= ${maxTriggerAttempts} then now() else null end`,
            error: message.slice(0, 1000),
          })
          .where(eq(actionTriggers.id, t.id))
          .returning({ attempts: actionTriggers.attempts, failedAt: actionTriggers.failedAt });
        if (row?.failedAt) this.log.error({ err, trigger: t.id, attempts: row.attempts }, 'actions trigger failed for good: no runs were made for it');
        else this.log.warn({ err, trigger: t.id, attempts: row?.attempts }, 'actions trigger failed; it is tried again when its lease ends');
      }
    }
    return claimed.length;
  }
}
