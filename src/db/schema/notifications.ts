// Who follows what, and what they are told: repository watchers, per-issue subscriptions and mentions,
// and notification threads (one per user and subject, updated in the transaction of each change).
import { bigint, boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { issues } from './issues.js';
import { repositories } from './repos.js';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const userRef = () =>
  bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
const repoRef = () =>
  bigint('repo_id', { mode: 'number' })
    .notNull()
    .references(() => repositories.id, { onDelete: 'cascade' });
const issueRef = () =>
  bigint('issue_id', { mode: 'number' })
    .notNull()
    .references(() => issues.id, { onDelete: 'cascade' });

/** Watchers of a repository (its creator watches it); `repositories.num_watches` counts them. */
export const repoWatches = pgTable(
  'repo_watches',
  {
    userId: userRef(),
    repoId: repoRef(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.repoId] }), index('repo_watches_repo_idx').on(t.repoId, t.userId)],
);

/** Stars given to a repository; `repositories.num_stars` and `users.num_stars` count them. */
export const stars = pgTable(
  'stars',
  {
    userId: userRef(),
    repoId: repoRef(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.repoId] }), index('stars_repo_idx').on(t.repoId, t.createdAt)],
);

/** An explicit subscription to an issue (true) or an explicit opt-out (false) that beats being a participant or a watcher. */
export const issueWatches = pgTable(
  'issue_watches',
  {
    userId: userRef(),
    issueId: issueRef(),
    isWatching: boolean('is_watching').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.issueId] }), index('issue_watches_issue_idx').on(t.issueId)],
);

/** Users @mentioned in an issue's body or one of its comments: participants from then on. */
export const issueMentions = pgTable(
  'issue_mentions',
  {
    issueId: issueRef(),
    userId: userRef(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.userId] }), index('issue_mentions_user_idx').on(t.userId)],
);

export const notificationStatuses = ['unread', 'read', 'pinned'] as const;
export type NotificationStatus = (typeof notificationStatuses)[number];
export const subjectTypes = ['Issue', 'Pull', 'Commit', 'Repository'] as const;
export type SubjectType = (typeof subjectTypes)[number];

export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: userRef(),
    repoId: repoRef(),
    subjectType: text('subject_type').$type<SubjectType>().notNull(),
    /** The issue or pull request (Issue and Pull subjects). */
    issueId: bigint('issue_id', { mode: 'number' }).references(() => issues.id, { onDelete: 'cascade' }),
    /** The commit (Commit subjects). */
    commitId: text('commit_id'),
    /** The comment that made the thread unread (kept while it stays unread: the oldest unread one). */
    commentId: bigint('comment_id', { mode: 'number' }),
    status: text('status').$type<NotificationStatus>().notNull().default('unread'),
    updatedBy: bigint('updated_by', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // One thread per user and subject.
    uniqueIndex('notifications_user_issue_key').on(t.userId, t.issueId).where(sql`issue_id is not null`),
    uniqueIndex('notifications_user_commit_key').on(t.userId, t.repoId, t.commitId).where(sql`commit_id is not null`),
    uniqueIndex('notifications_user_repo_key').on(t.userId, t.repoId).where(sql`subject_type = 'Repository'`),
    index('notifications_user_idx').on(t.userId, t.updatedAt, t.id),
    index('notifications_user_repo_idx').on(t.userId, t.repoId, t.updatedAt),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
