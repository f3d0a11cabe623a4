// What happened: one row per domain change, written in the change's own transaction. Activity-feed
// rows, notification threads and webhook deliveries are derived from it in that same transaction;
// follow-up work (pull-request statistics after a push, Actions runs) reacts to these rows.
import { bigint, boolean, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Gitea's webhook event type (HookEventType): push, create, delete, repository, issues, ... */
    type: text('type').notNull(),
    /** The payload's `action` where Gitea's payload has one (opened, closed, created, ...); '' otherwise. */
    action: text('action').notNull().default(''),
    actorId: bigint('actor_id', { mode: 'number' }).notNull(),
    /** No foreign keys: the record outlives what it describes (a deleted repository's last events). */
    repoId: bigint('repo_id', { mode: 'number' }),
    /** The repository's owner (user or organisation), or the organisation/user the event is about. */
    ownerId: bigint('owner_id', { mode: 'number' }),
    /** The repository was private (or the organisation not public) when this happened. */
    isPrivate: boolean('is_private').notNull().default(false),
    /** The event's typed data (EventData in services/events/types.ts), without the `type`. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('events_repo_idx').on(t.repoId, t.id)],
);

export type EventRow = typeof events.$inferSelect;

/**
 * The activity feed: one row per event that has one (not one per watcher, as Gitea writes: that is what
 * makes its table grow without bound, gitea#21611). Each feed is one index range in (scope, created_at, id)
 * order, so page 1 costs the same at five million rows as at ten.
 */
export const activities = pgTable(
  'activities',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    opType: text('op_type').notNull(),
    actUserId: bigint('act_user_id', { mode: 'number' }).notNull(),
    /** No foreign keys (the feed keeps naming what is gone); a deleted repository's rows are deleted with it. */
    repoId: bigint('repo_id', { mode: 'number' }),
    ownerId: bigint('owner_id', { mode: 'number' }),
    issueId: bigint('issue_id', { mode: 'number' }),
    commentId: bigint('comment_id', { mode: 'number' }),
    refName: text('ref_name').notNull().default(''),
    content: text('content').notNull().default(''),
    isPrivate: boolean('is_private').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('activities_owner_idx').on(t.ownerId, t.createdAt, t.id),
    index('activities_repo_idx').on(t.repoId, t.createdAt, t.id),
    index('activities_actor_idx').on(t.actUserId, t.createdAt, t.id),
  ],
);

export type ActivityRow = typeof activities.$inferSelect;

/**
 * How many feed rows each (owner, actor, repository) has: bumped with every activity row, in its
 * transaction. A feed's X-Total-Count is the sum over the visible repositories' tallies, so it stays
 * exact and cheap at millions of rows (an exact count(*) of a 5-million-row feed takes seconds;
 * Gitea caches it instead, gitea#33841). Rows without a repository are in no feed and not tallied;
 * a missing owner is 0.
 */
export const activityTallies = pgTable(
  'activity_tallies',
  {
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    actUserId: bigint('act_user_id', { mode: 'number' }).notNull(),
    repoId: bigint('repo_id', { mode: 'number' }).notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ownerId, t.actUserId, t.repoId] }),
    index('activity_tallies_actor_idx').on(t.actUserId),
    index('activity_tallies_repo_idx').on(t.repoId),
  ],
);

/**
 * A push in progress: written before git-receive-pack runs, deleted in the transaction that records the
 * push's events. git's reference-transaction hook journals each ref update it makes into a file named
 * after the row (`$DATA_DIR/tmp/pushes/<id>.log`); what is recorded is that journal, never a comparison of
 * snapshots. The row is leased by the process serving the push, which renews the lease while git runs; a
 * row whose lease lapsed (its process died) is taken over by any live process, which records the journal.
 */
export const pendingPushes = pgTable('pending_pushes', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  repoId: bigint('repo_id', { mode: 'number' }).notNull(),
  actorId: bigint('actor_id', { mode: 'number' }).notNull(),
  /** Full ref name → tip before the push: what a new branch's commits are counted against. */
  before: jsonb('before').$type<Record<string, string>>().notNull(),
  /** The process serving (or taking over) the push: `<hostname>:<pid>:<random>`. */
  holder: text('holder').notNull(),
  startedAt: ts('started_at').notNull().defaultNow(),
  /** Past this, the holder is presumed dead and any process may take the push over. */
  leaseUntil: ts('lease_until').notNull().defaultNow(),
}, (t) => [index('pending_pushes_lease_idx').on(t.leaseUntil)]);

/**
 * Repository folders moved around a transaction (git/folderMoves.ts): a delete's folders set aside, a
 * create's folder moved into place. Written (committed) before the move, deleted once the move is final;
 * leased like a pending push, so a row whose process died is mended by any live process.
 */
export const folderJournals = pgTable('folder_journals', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  /** `delete` or `create`. */
  kind: text('kind').notNull(),
  /** delete: `{repoId, trash, moves: [[from, to]]}`; create: `{ownerId, lowerName, final, scratch}`. */
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  holder: text('holder').notNull(),
  startedAt: ts('started_at').notNull().defaultNow(),
  leaseUntil: ts('lease_until').notNull().defaultNow(),
}, (t) => [index('folder_journals_lease_idx').on(t.leaseUntil)]);

export type PendingPushRow = typeof pendingPushes.$inferSelect;
export type FolderJournalRow = typeof folderJournals.$inferSelect;
