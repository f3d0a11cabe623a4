// Code search (#41): the text files of each repository's default branch, with a trigram index over their
// content, and per repository the commit indexed and whether a push asks for another round. A push to the
// default branch marks its repository wanted in the push's own transaction (services/search/codeIndexQueue.ts);
// one process at a time, holding a lease, brings the files in step (jobs/codeIndex.ts).
import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const codeIndexRepos = pgTable(
  'code_index_repos',
  {
    repoId: bigint('repo_id', { mode: 'number' }).primaryKey().references(() => repositories.id, { onDelete: 'cascade' }),
    /** The default branch's commit the files below were read from; '' before the first round. */
    indexedCommit: text('indexed_commit').notNull().default(''),
    /** Set by every push to the default branch, cleared by the round that saw it; null: in step. */
    wantedAt: ts('wanted_at'),
    /** The process holding the round, and until when (another process takes it over after that). */
    leasedBy: text('leased_by'),
    leaseUntil: ts('lease_until'),
    indexedAt: ts('indexed_at'),
  },
  (t) => [index('code_index_repos_wanted_idx').on(t.wantedAt).where(sql`wanted_at is not null`)],
);

export const codeIndexFiles = pgTable(
  'code_index_files',
  {
    repoId: bigint('repo_id', { mode: 'number' }).notNull().references(() => repositories.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    /** The blob's object id: a round rereads only the files whose blob changed. */
    blob: text('blob').notNull(),
    /** Linguist-style name from the file's extension ('' when unknown). */
    language: text('language').notNull().default(''),
    content: text('content').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.repoId, t.path] }),
    index('code_index_files_content_trgm_idx').using('gin', t.content.op('gin_trgm_ops')),
  ],
);

export type CodeIndexFileRow = typeof codeIndexFiles.$inferSelect;
