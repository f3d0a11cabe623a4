// Pull mirrors (#39): a repository kept in step with a remote by fetching from it. The remote's address
// is kept without credentials; the credentials (user name and password or token) are sealed with the
// Actions secrets key (services/actions/secretBox.ts) and never returned. One sync at a time, across
// processes: a sync claims the row (`claimed_until`) by a conditional update, as leftovers are claimed.
import { bigint, boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
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
  },
  (t) => [index('pull_mirrors_next_idx').on(t.nextSyncAt)],
);

export type PullMirrorRow = typeof pullMirrors.$inferSelect;
