// recordEvent: the one way a change becomes observable. Called inside the change's transaction, it
// writes the event row and hands it to every fan-out (activity rows, webhook deliveries, notification
// threads, follow-up work), all in that transaction: rolled back, nothing happened; committed, every
// consequence is already on disk and survives a crash.
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/raw.js';
import type { ServiceDeps } from '../context.js';
import { events } from '../../db/schema/index.js';
import type { DomainEvent, RecordedEvent } from './types.js';

/**
 * Derives rows from a recorded event, inside the recording transaction: every query goes through `tx`
 * (PGlite has one connection), and no git, file or network I/O.
 */
export type FanOut = (tx: Db, event: RecordedEvent, deps: ServiceDeps) => Promise<void>;

/**
 * What a fan-out reads for a whole list of events, asked in the statement that inserts them (one round
 * trip instead of two): `read` is a scalar SQL expression (JSON, say), and `seed` gets its value, with
 * the transaction, before any fan-out runs. The statement's snapshot is the one a read after the insert
 * would have seen, save the events themselves, which `read` must not look for.
 */
export interface Prefetch {
  read: SQL;
  seed: (tx: Db, value: unknown) => void;
}

const fanOuts: FanOut[] = [];
const prefetches: Array<(list: DomainEvent[], tx: Db, deps: ServiceDeps) => Prefetch | undefined> = [];

/** Registers a fan-out (at module load of its domain; order of registration is order of running). */
export function addFanOut(fanOut: FanOut, prefetch?: (list: DomainEvent[], tx: Db, deps: ServiceDeps) => Prefetch | undefined): void {
  fanOuts.push(fanOut);
  if (prefetch) prefetches.push(prefetch);
}

export async function recordEvent(deps: ServiceDeps, tx: Db, event: DomainEvent): Promise<RecordedEvent> {
  return (await recordEvents(deps, tx, [event]))[0]!;
}

/** A JSON column of a raw statement: parsed by both drivers as configured, but never trusted to be. */
const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

/**
 * Several events of one change (a ref change's `create` and `push`, a merge's pushes) in one insert;
 * then each event's fan-outs, in the order given, as recordEvent would run them one after the other.
 * `alongside`: a write of the same change (an UPDATE, say) sent in the same statement, as a
 * data-modifying CTE, so the change costs one round trip; it runs even when there is no event.
 */
export async function recordEvents(deps: ServiceDeps, tx: Db, list: DomainEvent[], alongside?: SQLWrapper): Promise<RecordedEvent[]> {
  if (list.length === 0) {
    if (alongside) await tx.execute(alongside.getSQL());
    return [];
  }
  const insert = tx
    .insert(events)
    .values(list.map((event) => {
      const { type, actorId, repoId, ownerId, isPrivate, noWorkflows: _hint, ...data } = event as DomainEvent & { noWorkflows?: unknown };
      return { type, action: 'action' in event ? event.action : '', actorId, repoId, ownerId, isPrivate, data };
    }))
    .returning({ id: events.id, createdAt: events.createdAt });
  const reads = prefetches.map((p) => p(list, tx, deps)).filter((p): p is Prefetch => p !== undefined);
  const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql.join([
    alongside ? sql`with "alongside" as (${alongside.getSQL()}), "recorded" as (${insert.getSQL()})` : sql`with "recorded" as (${insert.getSQL()})`,
    sql`select (select json_agg(json_build_array("recorded"."id", "recorded"."created_at")) from "recorded") as "recorded"`,
    ...reads.map((r, i) => sql`, (${r.read}) as ${sql.identifier(`read${i}`)}`),
  ], sql` `)));
  reads.forEach((r, i) => r.seed(tx, json(row![`read${i}`])));
  // One statement draws the ids in the order of its rows: sorted, they pair with the list.
  const rows = (json(row!.recorded) as Array<[number | string, string]>)
    .map(([id, at]) => ({ id: Number(id), createdAt: events.createdAt.mapFromDriverValue(at) }))
    .sort((a, b) => a.id - b.id);
  const recorded = list.map((event, i) => ({ ...event, id: rows[i]!.id, createdAt: rows[i]!.createdAt }) as RecordedEvent);
  for (const r of recorded) {
    for (const fanOut of fanOuts) await fanOut(tx, r, deps);
  }
  return recorded;
}
