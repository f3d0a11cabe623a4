// recordEvent: the one way a change becomes observable. Called inside the change's transaction, it
// writes the event row and hands it to every fan-out (activity rows, webhook deliveries, notification
// threads, follow-up work), all in that transaction: rolled back, nothing happened; committed, every
// consequence is already on disk and survives a crash.
import type { Db } from '../../db/client.js';
import type { ServiceDeps } from '../context.js';
import { events } from '../../db/schema/index.js';
import type { DomainEvent, RecordedEvent } from './types.js';

/**
 * Derives rows from a recorded event, inside the recording transaction: every query goes through `tx`
 * (PGlite has one connection), and no git, file or network I/O.
 */
export type FanOut = (tx: Db, event: RecordedEvent, deps: ServiceDeps) => Promise<void>;

const fanOuts: FanOut[] = [];

/** Registers a fan-out (at module load of its domain; order of registration is order of running). */
export function addFanOut(fanOut: FanOut): void {
  fanOuts.push(fanOut);
}

export async function recordEvent(deps: ServiceDeps, tx: Db, event: DomainEvent): Promise<RecordedEvent> {
  const { type, actorId, repoId, ownerId, isPrivate, ...data } = event;
  const action = 'action' in event ? event.action : '';
  const [row] = await tx
    .insert(events)
    .values({ type, action, actorId, repoId, ownerId, isPrivate, data })
    .returning({ id: events.id, createdAt: events.createdAt });
  const recorded: RecordedEvent = { ...event, id: row!.id, createdAt: row!.createdAt };
  for (const fanOut of fanOuts) await fanOut(tx, recorded, deps);
  return recorded;
}
