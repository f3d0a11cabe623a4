// Pending repository transfers: at most one per repository, waiting for the recipient (a user, or an
// organization's members who may create repositories there) to accept or reject it.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';
import { users } from './users.js';

const userRef = (name: string) =>
  bigint(name, { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

export const repoTransfers = pgTable(
  'repo_transfers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    doerId: userRef('doer_id'),
    /** The new owner: a user or an organization. */
    recipientId: userRef('recipient_id'),
    /** Teams of the recipient organization that get access once the transfer completes. */
    teamIds: bigint('team_ids', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    /** The recipient had no access and was made a read collaborator for the transfer; a rejection takes it back. */
    grantedRead: boolean('granted_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('repo_transfers_repo_key').on(t.repoId), index('repo_transfers_recipient_idx').on(t.recipientId)],
);

export type RepoTransferRow = typeof repoTransfers.$inferSelect;
