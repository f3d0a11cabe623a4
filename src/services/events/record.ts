// recordEvent: the one way a change becomes observable. Called inside the change's transaction, it
// writes the event row and hands it to every fan-out (activity rows, webhook deliveries, notification
// threads, follow-up work), all in that transaction: rolled back, nothing happened; committed, every
// consequence is already on disk and survives a crash.
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { jsonColumn, rowsOf } from '../../db/raw.js';
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

export interface FanOutOptions {
  prefetch?: (list: DomainEvent[], tx: Db, deps: ServiceDeps) => Prefetch | undefined;
  /**
   * Whether the fan-out would write nothing at all for these events (and do nothing else): true, false,
   * or a condition the recording statement decides (see recordEventsAlone). Left out: never quiet.
   */
  quiet?: (list: DomainEvent[], deps: ServiceDeps) => boolean | SQL;
}

const fanOuts: FanOut[] = [];
const registered: FanOutOptions[] = [];

/** Registers a fan-out (at module load of its domain; order of registration is order of running). */
export function addFanOut(fanOut: FanOut, options: FanOutOptions = {}): void {
  fanOuts.push(fanOut);
  registered.push(options);
}

export async function recordEvent(deps: ServiceDeps, tx: Db, event: DomainEvent): Promise<RecordedEvent> {
  return (await recordEvents(deps, tx, [event]))[0]!;
}

/** An event's row: its scope in columns, the rest of it as `data` (the Actions hint is not stored). */
export function eventRow(event: DomainEvent) {
  const { type, actorId, repoId, ownerId, isPrivate, noWorkflows: _hint, ...data } = event as DomainEvent & { noWorkflows?: unknown };
  return { type, action: 'action' in event ? event.action : '', actorId, repoId, ownerId, isPrivate, data };
}

/** The events with the ids and times a statement's `json_agg(json_build_array(id, created_at))` gave them. */
function paired(list: DomainEvent[], value: unknown): RecordedEvent[] {
  // One statement draws the ids in the order of its rows: sorted, they pair with the list.
  const rows = (jsonColumn(value) as Array<[number | string, string]>)
    .map(([id, at]) => ({ id: Number(id), createdAt: events.createdAt.mapFromDriverValue(at) }))
    .sort((a, b) => a.id - b.id);
  return list.map((event, i) => ({ ...event, id: rows[i]!.id, createdAt: rows[i]!.createdAt }) as RecordedEvent);
}

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
    .values(list.map(eventRow))
    .returning({ id: events.id, createdAt: events.createdAt });
  const reads = registered.map((o) => o.prefetch?.(list, tx, deps)).filter((p): p is Prefetch => p !== undefined);
  const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql.join([
    alongside ? sql`with "alongside" as (${alongside.getSQL()}), "recorded" as (${insert.getSQL()})` : sql`with "recorded" as (${insert.getSQL()})`,
    sql`select (select json_agg(json_build_array("recorded"."id", "recorded"."created_at")) from "recorded") as "recorded"`,
    ...reads.map((r, i) => sql`, (${r.read}) as ${sql.identifier(`read${i}`)}`),
  ], sql` `)));
  reads.forEach((r, i) => r.seed(tx, jsonColumn(row![`read${i}`])));
  const recorded = paired(list, row!.recorded);
  for (const r of recorded) {
    for (const fanOut of fanOuts) await fanOut(tx, r, deps);
  }
  return recorded;
}

/** Repositories whose last recording alone found a fan-out with work to do: not tried again for a minute. */
/**
 * Repositories where a one-statement write last found a fan-out with work to do: not tried that way
 * again for a minute (the statement would only check and write nothing). Bounded, oldest out.
 */
export class BusyRepos {
  private readonly until = new Map<number, number>();
  constructor(private readonly ms = 60_000, private readonly max = 10_000) {}

  has(repoId: number): boolean {
    return (this.until.get(repoId) ?? 0) > Date.now();
  }

  mark(repoId: number): void {
    this.until.delete(repoId);
    this.until.set(repoId, Date.now() + this.ms);
    if (this.until.size > this.max) this.until.delete(this.until.keys().next().value!);
  }
}

const busy = new BusyRepos();

/**
 * Records events without a transaction, in one statement, when no fan-out has anything to do for them
 * (the common case of a branch created where no hook listens): the statement checks the fan-outs'
 * conditions and inserts the events only if they all hold, so it is as atomic as the transaction it
 * replaces. Answers the recorded events, or undefined when some fan-out has work to do (or may have):
 * then nothing was recorded and the caller records them in a transaction as usual. `alongside` runs in
 * the same statement either way, so the caller's transaction must write the same again.
 */
export async function recordEventsAlone(deps: ServiceDeps, list: DomainEvent[], alongside?: SQLWrapper): Promise<RecordedEvent[] | undefined> {
  const repoId = list[0]?.repoId;
  if (repoId === undefined || busy.has(repoId)) return undefined;
  const conditions = quietConditions(deps, list);
  if (!conditions) return undefined;
  const rows = sql.join(list.map((event) => {
    const r = eventRow(event);
    return sql`(${r.type}::text, ${r.action}::text, ${r.actorId}::bigint, ${r.repoId ?? null}::bigint, ${r.ownerId ?? null}::bigint, ${r.isPrivate}::boolean, ${JSON.stringify(r.data)}::jsonb)`;
  }), sql`, `);
  const columns = sql`"type", "action", "actor_id", "repo_id", "owner_id", "is_private", "data"`;
  const [row] = rowsOf<Record<string, unknown>>(await deps.db.execute(sql.join([
    sql`with "guard" as (select ${conditions.length ? sql.join(conditions, sql` and `) : sql`true`} as "quiet"),`,
    alongside ? sql`"alongside" as (${alongside.getSQL()}),` : sql``,
    sql`"recorded" as (insert into ${events} (${columns}) select * from (values ${rows}) as "v" (${columns})`,
    sql`where (select "quiet" from "guard") returning "id", "created_at")`,
    sql`select (select "quiet" from "guard") as "quiet", (select json_agg(json_build_array("recorded"."id", "recorded"."created_at")) from "recorded") as "recorded"`,
  ], sql` `)));
  if (jsonColumn(row!.quiet) !== true) {
    busy.mark(repoId);
    return undefined;
  }
  return paired(list, row!.recorded);
}

/**
 * The conditions (each to be true in the recording statement) under which every fan-out but those in
 * `handled` would write nothing for `list`; undefined when one of them surely would. A caller that
 * writes in its own statement what the `handled` fan-outs would write (see issues/createAlone.ts) asks
 * this for the others.
 */
export function quietConditions(deps: ServiceDeps, list: DomainEvent[], handled: readonly FanOut[] = []): SQL[] | undefined {
  const conditions: SQL[] = [];
  for (const [i, o] of registered.entries()) {
    if (handled.includes(fanOuts[i]!)) continue;
    const q = o.quiet?.(list, deps) ?? false;
    if (q === false) return undefined;
    if (q !== true) conditions.push(sql`(${q})`);
  }
  return conditions;
}
