// Releases of a repository: a tag with a title, notes and assets (attachments whose `release_id` is set).
// Drafts have no tag in git until they are published; the tag is created when missing.
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const releases = pgTable(
  'releases',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    /** The publisher stays when an account goes: the API shows the ghost user. */
    publisherId: bigint('publisher_id', { mode: 'number' }).notNull(),
    tagName: text('tag_name').notNull(),
    lowerTagName: text('lower_tag_name').notNull(),
    /** `target_commitish` as sent (a branch, a tag or a commit); the tag is made from it when missing. */
    target: text('target').notNull().default(''),
    title: text('title').notNull().default(''),
    note: text('note').notNull().default(''),
    /** The commit the tag points at (empty for a draft whose tag does not exist yet). */
    sha1: text('sha1').notNull().default(''),
    numCommits: integer('num_commits').notNull().default(0),
    isDraft: boolean('is_draft').notNull().default(false),
    isPrerelease: boolean('is_prerelease').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** When it stopped being a draft (null while it is one). */
    publishedAt: ts('published_at'),
  },
  (t) => [
    uniqueIndex('releases_repo_tag_key').on(t.repoId, t.lowerTagName),
    index('releases_repo_created_idx').on(t.repoId, t.createdAt, t.id),
  ],
);

export type ReleaseRow = typeof releases.$inferSelect;
