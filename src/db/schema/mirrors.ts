// Pull mirrors (#39): a repository kept in step with a remote by fetching from it. The remote's address
// is kept without credentials; the credentials (user name and password or token) are sealed with the
// Actions secrets key (services/actions/secretBox.ts) and never returned. One sync at a time, across
// processes: a sync claims the row (`claimed_until`) by a conditional update, as leftovers are claimed.
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const pullMirrors = pgTable(
  'pull_mirrors',
  {
    repoId: bigint('repo_id', { mode: 'number' })
      .primaryKey()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    remoteUrl: text('remote_url').notNull(),
    /** Sealed `{"username","password"}` JSON, or null when the remote needs none. */
    credentials: text('credentials'),
    /** Seconds between scheduled syncs; 0: only on request (mirror-sync). */
    intervalSeconds: bigint('interval_seconds', { mode: 'number' }).notNull().default(28800),
    enablePrune: boolean('enable_prune').notNull().default(true),
    /** When the next scheduled sync is due (null: never, or on request only). */
    nextSyncAt: ts('next_sync_at'),
    /** A sync under way holds the row until then; past it, another process may sync. */
    claimedUntil: ts('claimed_until'),
    /** When a sync last finished, and when it last changed a ref. */
    lastSyncAt: ts('last_sync_at'),
    updatedAt: ts('updated_at'),
    lastError: text('last_error').notNull().default(''),
    /**
     * The mirror's refs (heads and tags → ids) as they were before a fetch whose ref changes are not
     * recorded yet: set before the fetch, cleared in the transaction that records its push events. A sync
     * that finds it set (its process died after fetching) records the changes from there, so none is lost
     * or recorded twice.
     */
    pendingRefs: jsonb('pending_refs').$type<Record<string, string>>(),
    /** Whether each sync brings the LFS objects the mirror's refs point at (the migration's `lfs`). */
    lfs: boolean('lfs').notNull().default(false),
    /** The migration's `lfs_endpoint`; empty: the remote address + `/info/lfs`. */
    lfsEndpoint: text('lfs_endpoint').notNull().default(''),
  },
  (t) => [index('pull_mirrors_next_idx').on(t.nextSyncAt)],
);

export type PullMirrorRow = typeof pullMirrors.$inferSelect;

/**
 * Push mirrors (#39): remotes the repository's branches and tags are pushed to, on request
 * (`push_mirrors-sync`), after each push (`sync_on_commit`) and on an interval (`update_mirrors`). The
 * address is kept without credentials; the credentials are sealed as a pull mirror's. A push records
 * `wanted_at` in its own transaction; one process at a time holds a mirror (`claimed_until`) and clears
 * the mark only if no push set it again meanwhile, so every push is followed by a sync that carries it.
 */
export const pushMirrors = pgTable(
  'push_mirrors',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    /** Gitea's `remote_mirror_<10 random characters>`, the mirror's name in the API. */
    remoteName: text('remote_name').notNull(),
    remoteAddress: text('remote_address').notNull(),
    credentials: text('credentials'),
    syncOnCommit: boolean('sync_on_commit').notNull().default(true),
    /** Seconds between scheduled syncs; 0: none. */
    intervalSeconds: bigint('interval_seconds', { mode: 'number' }).notNull().default(28800),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** A sync is wanted (a push, or a request): set in the pushing transaction, cleared by the sync that saw it. */
    wantedAt: ts('wanted_at'),
    nextSyncAt: ts('next_sync_at'),
    claimedUntil: ts('claimed_until'),
    lastUpdate: ts('last_update'),
    lastError: text('last_error').notNull().default(''),
  },
  (t) => [uniqueIndex('push_mirrors_repo_name_idx').on(t.repoId, t.remoteName), index('push_mirrors_wanted_idx').on(t.wantedAt), index('push_mirrors_next_idx').on(t.nextSyncAt)],
);

export type PushMirrorRow = typeof pushMirrors.$inferSelect;
