// What happened: one row per domain change, written in the change's own transaction. Activity-feed
// rows, notification threads and webhook deliveries are derived from it in that same transaction;
// follow-up work (pull-request statistics after a push, Actions runs) reacts to these rows.
import { bigint, boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
