// The webhook fan-out: for a recorded event, one delivery row per active hook that wants it (the
// repository's hooks, its organisation's, the system hooks), in the event's transaction. The payload is
// built only when some hook matches.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsFromJson } from '../../db/jsonRows.js';
import { hookDeliveries, hooks, type HookRow } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { branchMatches } from './hookOptions.js';
import type { BuiltPayload, Payloads } from './payloadTypes.js';
import { addFanOut, type Prefetch } from './record.js';
import type { DomainEvent, RecordedEvent } from './types.js';

/** Told when deliveries were queued, so an idle worker in this process looks soon (the row is the guarantee). */
export const deliveryQueued = new EventEmitter();

/** The branch an event concerns, when the branch filter applies to it (pushes, creations and deletions of branches). */
function filteredBranch(e: RecordedEvent): string | undefined {
  if (e.type === 'push' && e.ref.startsWith('refs/heads/')) return e.ref.slice('refs/heads/'.length);
  if ((e.type === 'create' || e.type === 'delete') && e.refType === 'branch') return e.ref;
  return undefined;
}

export async function queueDeliveries(tx: Db, encode: Payloads['encode'], hookRows: HookRow[], eventId: number, eventType: string, built: BuiltPayload): Promise<number[]> {
  if (hookRows.length === 0) return [];
  const rows = await tx
    .insert(hookDeliveries)
    .values(hookRows.map((h) => ({ hookId: h.id, eventId, guid: randomUUID(), event: built.event, eventType, payload: encode(h, built) })))
    .returning({ id: hookDeliveries.id });
  deliveryQueued.emit('queued');
  return rows.map((r) => r.id);
}

async function copyDefaultHooks(tx: Db, repoId: number): Promise<void> {
  const defaults = await tx.select().from(hooks).where(and(isNull(hooks.repoId), isNull(hooks.ownerId), eq(hooks.isSystem, false)));
  if (defaults.length === 0) return;
  const now = new Date();
  await tx.insert(hooks).values(defaults.map(({ id: _id, ...h }) => ({ ...h, repoId, createdAt: now, updatedAt: now })));
}

/**
 * The active hooks that may hear of the repository's events (its own, its owner's, the system's), read
 * once per transaction: a change that records several events (a new branch's create and push, a merge's
 * push and close) asks once. Hooks are written outside event transactions, except the defaults copied
 * into a new repository, which drop the transaction's copy.
 */
const hooksInTx = new WeakMap<Db, Map<string, Promise<HookRow[]>>>();
function repoHooks(tx: Db, repoId: number, ownerId: number | undefined, root: Db): Promise<HookRow[]> {
  // Recorded outside a transaction (the root handle lives as long as the process): nothing kept.
  if (tx === root) return readRepoHooks(tx, repoId, ownerId);
  let perTx = hooksInTx.get(tx);
  if (!perTx) hooksInTx.set(tx, (perTx = new Map()));
  const key = `${repoId}:${ownerId ?? ''}`;
  let rows = perTx.get(key);
  if (!rows) {
    rows = readRepoHooks(tx, repoId, ownerId);
    perTx.set(key, rows);
  }
  return rows;
}

/** The active hooks of a repository, its owner and the system. */
const repoHooksWhere = (repoId: number, ownerId: number | undefined) =>
  and(
    eq(hooks.active, true),
    or(
      eq(hooks.repoId, repoId),
      ownerId !== undefined ? and(isNull(hooks.repoId), eq(hooks.ownerId, ownerId)) : undefined,
      and(isNull(hooks.repoId), isNull(hooks.ownerId), eq(hooks.isSystem, true)),
    ),
  );

/** A real promise (a Drizzle query runs again each time it is awaited): the transaction's copy is read once. */
async function readRepoHooks(tx: Db, repoId: number, ownerId: number | undefined): Promise<HookRow[]> {
  return tx.select().from(hooks).where(repoHooksWhere(repoId, ownerId));
}

/**
 * Events of one repository read its hooks in the statement that records them (record.ts's prefetch), and
 * the fan-out finds them in the transaction's copy. Recorded outside a transaction, they are read as usual.
 */
function prefetchHooks(list: DomainEvent[], tx: Db, deps: ServiceDeps): Prefetch | undefined {
  const { repoId, ownerId } = list[0]!;
  if (tx === deps.db || repoId === undefined || list.some((e) => e.repoId !== repoId || e.ownerId !== ownerId)) return undefined;
  return {
    read: sql`select coalesce(json_agg(row_to_json(${hooks})), '[]'::json) from ${hooks} where ${repoHooksWhere(repoId, ownerId)}`,
    seed: (tx, value) => {
      let perTx = hooksInTx.get(tx);
      if (!perTx) hooksInTx.set(tx, (perTx = new Map()));
      perTx.set(`${repoId}:${ownerId ?? ''}`, Promise.resolve(rowsFromJson(hooks, value as Array<Record<string, unknown>>)));
    },
  };
}

/** An owner's event (a package's): the owner's hooks and the system's that listen to it, as Gitea's. */
async function deliverOwnerEvent(tx: Db, e: RecordedEvent, deps: ServiceDeps): Promise<void> {
  if (e.ownerId === undefined) return;
  const wanted = (await tx.select().from(hooks).where(and(eq(hooks.active, true), isNull(hooks.repoId),
    or(eq(hooks.ownerId, e.ownerId), and(isNull(hooks.ownerId), eq(hooks.isSystem, true))))))
    .filter((h) => h.events.includes(e.type) && h.type !== 'packagist');
  if (wanted.length === 0) return;
  const built = await deps.payloads.build(tx, e, deps.config);
  if (!built) return;
  await queueDeliveries(tx, deps.payloads.encode, wanted, e.id, e.type, built);
}

export async function deliverToHooks(tx: Db, e: RecordedEvent, deps: ServiceDeps): Promise<void> {
  if (e.type === 'package') return deliverOwnerEvent(tx, e, deps);
  if (e.repoId === undefined) return;
  if (e.type === 'repository' && e.action === 'created') {
    await copyDefaultHooks(tx, e.repoId);
    hooksInTx.delete(tx);
  }
  const candidates = (await repoHooks(tx, e.repoId, e.ownerId, deps.db)).filter((h) => h.events.includes(e.type));
  const branch = filteredBranch(e);
  const matching = candidates.filter((h) => branch === undefined || branchMatches(h.branchFilter, branch));
  // Packagist is told about pushes only (Gitea's rule).
  const wanted = matching.filter((h) => h.type !== 'packagist' || e.type === 'push');
  if (wanted.length === 0) return;
  const built = await deps.payloads.build(tx, e, deps.config);
  if (!built) return;
  await queueDeliveries(tx, deps.payloads.encode, wanted, e.id, e.type, built);
}

/** Quiet when no active hook could hear of the events (whatever they listen to), and no repository is being created. */
function noHooks(list: DomainEvent[]): boolean | SQL {
  if (list.some((e) => e.type === 'repository' && e.action === 'created')) return false;
  const { repoId, ownerId } = list[0]!;
  if (repoId === undefined || list.some((e) => e.repoId !== repoId || e.ownerId !== ownerId)) return false;
  return sql`not exists (select 1 from ${hooks} where ${repoHooksWhere(repoId, ownerId)})`;
}

addFanOut(deliverToHooks, { prefetch: prefetchHooks, quiet: noHooks });
