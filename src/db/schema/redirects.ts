// The old names of renamed and transferred repositories and of renamed accounts (Gitea's repo_redirect and
// user_redirect): a request naming one is sent to the current name. A redirect points at an id, so a chain of
// renames (A → B → C) resolves to the current name; a repository or account that takes a name removes the
// redirect of that name (triggers of migration 0046, so every path that names a row obeys), and deleting the
// target removes its redirects (the foreign keys cascade).
import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';
import { users } from './users.js';

export const repoRedirects = pgTable(
  'repo_redirects',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The owner under which the old name was (kept when that owner is renamed: owner ids do not change). */
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The old name, lower case. */
    lowerName: text('lower_name').notNull(),
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('repo_redirects_owner_name_key').on(t.ownerId, t.lowerName), index('repo_redirects_repo_idx').on(t.repoId)],
);

export const userRedirects = pgTable(
  'user_redirects',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The old name, lower case. */
    lowerName: text('lower_name').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('user_redirects_name_key').on(t.lowerName), index('user_redirects_user_idx').on(t.userId)],
);

export type RepoRedirectRow = typeof repoRedirects.$inferSelect;
export type UserRedirectRow = typeof userRedirects.$inferSelect;
