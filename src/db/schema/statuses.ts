// Commit statuses: what CI systems report for a commit, one row per report (never updated). Each
// (repository, commit) numbers its statuses 1, 2, 3, ... — Gitea's API shows that number as `id`.
import { bigint, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const commitStatuses = pgTable(
  'commit_statuses',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    /** The full commit id. */
    sha: text('sha').notNull(),
    /** 1, 2, 3, ... per (repository, sha), from commit_status_indexes. */
    index: bigint('index', { mode: 'number' }).notNull(),
    state: text('state').notNull(),
    targetUrl: text('target_url').notNull().default(''),
    description: text('description').notNull().default(''),
    context: text('context').notNull().default(''),
    /** No foreign key: a deleted account's statuses stay and show the ghost user. */
    creatorId: bigint('creator_id', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('commit_statuses_repo_sha_index_idx').on(t.repoId, t.sha, t.index),
    // The latest status of each context (the combined status) is one index range per context.
    index('commit_statuses_context_idx').on(t.repoId, t.sha, t.context, t.index),
    index('commit_statuses_created_idx').on(t.repoId, t.sha, t.createdAt),
  ],
);

export type CommitStatusRow = typeof commitStatuses.$inferSelect;

/** The last index given out per (repository, sha): an upsert on it numbers concurrent writers without gaps or clashes. */
export const commitStatusIndexes = pgTable(
  'commit_status_indexes',
  {
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    sha: text('sha').notNull(),
    maxIndex: bigint('max_index', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.repoId, t.sha] })],
);
