// Git LFS: which objects each repository holds (Gitea's lfs_meta_object; an object's bytes live once in
// the `lfs` store, keyed by oid, shared by every repository that holds it) and the locks of its paths.
import { bigint, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const lfsMetaObjects = pgTable(
  'lfs_meta_objects',
  {
    /** sha256 of the content, 64 lower-case hex digits. */
    oid: text('oid').notNull(),
    repoId: bigint('repo_id', { mode: 'number' }).notNull().references(() => repositories.id, { onDelete: 'cascade' }),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.repoId, t.oid] }), index('lfs_meta_objects_oid_idx').on(t.oid)],
);

export type LfsMetaObjectRow = typeof lfsMetaObjects.$inferSelect;

export const lfsLocks = pgTable(
  'lfs_locks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    repoId: bigint('repo_id', { mode: 'number' }).notNull().references(() => repositories.id, { onDelete: 'cascade' }),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The locked path, cleaned (no leading slash, no `.` or `..`). */
    path: text('path').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lfs_locks_repo_path_key').on(t.repoId, t.path), index('lfs_locks_repo_idx').on(t.repoId, t.id)],
);

export type LfsLockRow = typeof lfsLocks.$inferSelect;
