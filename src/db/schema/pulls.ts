// What pull requests have beyond their row in pull_requests: merges scheduled for when the head's
// commit statuses turn green (auto-merge).
import { bigint, boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { pullRequests } from './issues.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One scheduled merge per pull request: how to merge, and as whom, once the checks succeed. */
export const pullAutoMerges = pgTable('pull_auto_merges', {
  pullId: bigint('pull_id', { mode: 'number' })
    .primaryKey()
    .references(() => pullRequests.id, { onDelete: 'cascade' }),
  doerId: bigint('doer_id', { mode: 'number' }).notNull(),
  style: text('style').notNull(),
  message: text('message').notNull().default(''),
  deleteBranchAfterMerge: boolean('delete_branch_after_merge').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export type PullAutoMergeRow = typeof pullAutoMerges.$inferSelect;
