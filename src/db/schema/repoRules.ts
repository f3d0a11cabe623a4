// What a repository has beyond its row for #38: tag protection rules (Gitea's ProtectedTag), which pushes,
// the tag API and releases obey, and the bytes per language of the default branch, computed on push.
import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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

export type RepoLanguageRow = typeof repoLanguages.$inferSelect;

/**
 * Per repository: the default branch's commit its stored statistics (the `repo_languages` rows, the
 * repository's `language` and `licenses`) were computed from, and whether a change asks for another
 * round. A push to the default branch, a new repository or fork and a change of the default branch mark
 * it wanted in their own transaction (services/repos/repoStats.ts); one process at a time, holding a
 * lease, computes them (jobs/repoStats.ts).
 */
export const repoStats = pgTable(
  'repo_stats',
  {
    repoId: bigint('repo_id', { mode: 'number' }).primaryKey().references(() => repositories.id, { onDelete: 'cascade' }),
    /** The commit the statistics were computed from; '' before the first round (or for an empty branch). */
    commit: text('commit').notNull().default(''),
    /** Set by every change that asks for a round, cleared by the round that saw it; null: in step. */
    wantedAt: ts('wanted_at'),
    /** The process holding the round, and until when (another process takes it over after that). */
    leasedBy: text('leased_by'),
    leaseUntil: ts('lease_until'),
    computedAt: ts('computed_at'),
    /** How many rounds computed this repository's statistics (each wanted mark is served by one round). */
    rounds: bigint('rounds', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('repo_stats_wanted_idx').on(t.wantedAt).where(sql`wanted_at is not null`)],
);
