// Time spent on issues and pull requests: tracked times (added by hand or by stopping a stopwatch) and
// the stopwatches that are running. A user runs at most one stopwatch at a time, as in Gitea.
import { bigint, index, pgTable, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { issues } from './issues.js';
import { repositories } from './repos.js';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const issueRef = () =>
  bigint('issue_id', { mode: 'number' })
    .notNull()
    .references(() => issues.id, { onDelete: 'cascade' });
/** The issue's repository, kept beside it so a repository's times are listed from one index. */
const repoRef = () =>
  bigint('repo_id', { mode: 'number' })
    .notNull()
    .references(() => repositories.id, { onDelete: 'cascade' });

export const trackedTimes = pgTable(
  'tracked_times',
  {
    id: id(),
    issueId: issueRef(),
    repoId: repoRef(),
    /** Times stay when their account goes: the API shows the ghost user. */
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    /** Seconds. */
    time: bigint('time', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('tracked_times_issue_idx').on(t.issueId, t.userId),
    index('tracked_times_repo_idx').on(t.repoId, t.createdAt, t.id),
    index('tracked_times_user_idx').on(t.userId, t.createdAt, t.id),
  ],
);

export const stopwatches = pgTable(
  'stopwatches',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issueId: issueRef(),
    repoId: repoRef(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('stopwatches_user_key').on(t.userId), index('stopwatches_issue_idx').on(t.issueId)],
);

export type TrackedTimeRow = typeof trackedTimes.$inferSelect;
export type StopwatchRow = typeof stopwatches.$inferSelect;
