// What a repository has beyond its row for #38: tag protection rules (Gitea's ProtectedTag), which pushes,
// the tag API and releases obey, and the bytes per language of the default branch, computed on push.
import { bigint, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const tagProtections = pgTable(
  'tag_protections',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    /** A glob, or a regular expression between slashes. */
    namePattern: text('name_pattern').notNull(),
    allowlistUserIds: jsonb('allowlist_user_ids').$type<number[]>().notNull().default([]),
    allowlistTeamIds: jsonb('allowlist_team_ids').$type<number[]>().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tag_protections_pattern_key').on(t.repoId, t.namePattern)],
);

export type TagProtectionRow = typeof tagProtections.$inferSelect;

/** Bytes per language of the default branch's tree at `commit` (written after each push that moves it). */
export const repoLanguages = pgTable(
  'repo_languages',
  {
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    commit: text('commit').notNull(),
  },
  (t) => [primaryKey({ columns: [t.repoId, t.language] })],
);
