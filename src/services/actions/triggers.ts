// Pushes that may start workflows: every pushed branch or tag queues a trigger in the push's own
// transaction (DESIGN §6: follow-up work reacts to recorded events). The trigger worker
// (jobs/actionTriggers.ts) reads the workflows at the pushed commit and writes the runs.
import { EventEmitter } from 'node:events';
import { actionTriggers } from '../../db/schema/index.js';
import { addFanOut } from '../events/record.js';
import type { RecordedEvent } from '../events/types.js';
import type { Db } from '../../db/client.js';
import type { ServiceDeps } from '../context.js';

/** Emitted after a trigger row is written (in-process wake-up for the worker; the poll covers other processes). */
export const triggerQueued = new EventEmitter();

async function queueTrigger(tx: Db, e: RecordedEvent, deps: ServiceDeps): Promise<void> {
  if (!deps.config.actions.enabled || e.type !== 'push' || e.repoId === undefined || /^0+$/.test(e.after)) return;
  if (!e.ref.startsWith('refs/heads/') && !e.ref.startsWith('refs/tags/')) return;
  await tx.insert(actionTriggers).values({ eventId: e.id, repoId: e.repoId, actorId: e.actorId, event: 'push', ref: e.ref, before: e.before, sha: e.after });
  triggerQueued.emit('queued');
}

addFanOut(queueTrigger);
