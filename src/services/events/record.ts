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
  return (await recordEvents(deps, tx, [event]))[0]!;
}

/**
 * Several events of one change (a ref change's `create` and `push`, a merge's pushes) in one insert;
 * then each event's fan-outs, in the order given, as recordEvent would run them one after the other.
 */
export async function recordEvents(deps: ServiceDeps, tx: Db, list: DomainEvent[]): Promise<RecordedEvent[]> {
  if (list.length === 0) return [];
  const rows = await tx
    .insert(events)
    .values(list.map((event) => {
      const { type, actorId, repoId, ownerId, isPrivate, noWorkflows: _hint, ...data } = event as DomainEvent & { noWorkflows?: unknown };
      return { type, action: 'action' in event ? event.action : '', actorId, repoId, ownerId, isPrivate, data };
    }))
    .returning({ id: events.id, createdAt: events.createdAt });
  // One statement draws the ids in the order of its rows: sorted, they pair with the list.
  rows.sort((a, b) => a.id - b.id);
  const recorded = list.map((event, i) => ({ ...event, id: rows[i]!.id, createdAt: rows[i]!.createdAt }) as RecordedEvent);
  for (const r of recorded) {
    for (const fanOut of fanOuts) await fanOut(tx, r, deps);
  }
  return recorded;
}
