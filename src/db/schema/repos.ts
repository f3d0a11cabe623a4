// Repositories, their collaborators and their teams. The git data lives on disk
// ($DATA_DIR/repositories/<owner>/<name>.git); these rows describe it.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { AccessMode } from './access.js';
import { teams } from './orgs.js';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const objectFormats = ['sha1', 'sha256'] as const;
export type ObjectFormat = (typeof objectFormats)[number];
export const trustModels = ['default', 'collaborator', 'committer', 'collaboratorcommitter'] as const;
export type TrustModel = (typeof trustModels)[number];
export const mergeStyles = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manual-merge'] as const;

export interface ExternalTrackerConfig {
  external_tracker_url: string;
  external_tracker_format: string;
  external_tracker_style: string;
  external_tracker_regexp_pattern: string;
}

export const repositories = pgTable(
  'repositories',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    lowerName: text('lower_name').notNull(),
    description: text('description').notNull().default(''),
    website: text('website').notNull().default(''),
    isPrivate: boolean('is_private').notNull().default(false),
    isEmpty: boolean('is_empty').notNull().default(true),
    isArchived: boolean('is_archived').notNull().default(false),
    archivedAt: ts('archived_at'),
    isMirror: boolean('is_mirror').notNull().default(false),
    isTemplate: boolean('is_template').notNull().default(false),
    /**
     * Gitea's `status`: 0 ready, 1 being migrated (a placeholder row holding the name while a migration
     * task runs: `migrate_tasks`; only repoGet and lists show it, everything else answers 404 until the
     * migration's transaction fills the row and sets it ready, or deletes it when the migration fails).
     */
    status: integer('status').notNull().default(0),
    /** Where a migrated repository came from (no credentials), and the kind of server (`git`, `gitea`); empty when not migrated. */
    originalUrl: text('original_url').notNull().default(''),
    originalServiceType: text('original_service_type').notNull().default(''),
    /** The repository this one was forked from (null when it is not a fork, or its parent was deleted). */
    forkId: bigint('fork_id', { mode: 'number' }).references((): AnyPgColumn => repositories.id, { onDelete: 'set null' }),
    /** The template repository this one was generated from (null when not generated, or the template was deleted). */
    templateId: bigint('template_id', { mode: 'number' }).references((): AnyPgColumn => repositories.id, { onDelete: 'set null' }),
    /**
     * The uploaded avatar's key in the `repo-avatars` store (`<repo id>-<sha256 of the picture, hex>`), or ''
     * without one. `avatar_url` is `<ROOT_URL>repo-avatars/<avatar>` (Gitea's `repository.avatar`).
     */
    avatar: text('avatar').notNull().default(''),
    defaultBranch: text('default_branch').notNull().default('main'),
    objectFormat: text('object_format').$type<ObjectFormat>().notNull().default('sha1'),
    trustModel: text('trust_model').$type<TrustModel>().notNull().default('default'),
    // Units: which parts of the repository are switched on.
    hasCode: boolean('has_code').notNull().default(true),
    hasIssues: boolean('has_issues').notNull().default(true),
    hasWiki: boolean('has_wiki').notNull().default(true),
    hasPullRequests: boolean('has_pull_requests').notNull().default(true),
    hasProjects: boolean('has_projects').notNull().default(true),
    hasReleases: boolean('has_releases').notNull().default(true),
    hasPackages: boolean('has_packages').notNull().default(true),
    hasActions: boolean('has_actions').notNull().default(true),
    projectsMode: text('projects_mode').notNull().default('all'),
    externalTracker: jsonb('external_tracker').$type<ExternalTrackerConfig | null>(),
    externalWikiUrl: text('external_wiki_url'),
    enableTimeTracker: boolean('enable_time_tracker').notNull().default(true),
    allowOnlyContributorsToTrackTime: boolean('allow_only_contributors_to_track_time').notNull().default(true),
    enableIssueDependencies: boolean('enable_issue_dependencies').notNull().default(true),
    // Pull-request settings.
    ignoreWhitespaceConflicts: boolean('ignore_whitespace_conflicts').notNull().default(false),
    allowMergeCommits: boolean('allow_merge_commits').notNull().default(true),
    allowRebase: boolean('allow_rebase').notNull().default(true),
    allowRebaseExplicit: boolean('allow_rebase_explicit').notNull().default(true),
    allowSquashMerge: boolean('allow_squash_merge').notNull().default(true),
    allowFastForwardOnlyMerge: boolean('allow_fast_forward_only_merge').notNull().default(true),
    allowManualMerge: boolean('allow_manual_merge').notNull().default(false),
    autodetectManualMerge: boolean('autodetect_manual_merge').notNull().default(false),
    allowRebaseUpdate: boolean('allow_rebase_update').notNull().default(true),
    defaultDeleteBranchAfterMerge: boolean('default_delete_branch_after_merge').notNull().default(false),
    defaultMergeStyle: text('default_merge_style').notNull().default('merge'),
    defaultAllowMaintainerEdit: boolean('default_allow_maintainer_edit').notNull().default(false),
    // Counters, kept exact by the services that change what they count.
    numIssues: integer('num_issues').notNull().default(0),
    numClosedIssues: integer('num_closed_issues').notNull().default(0),
    numPulls: integer('num_pulls').notNull().default(0),
    numClosedPulls: integer('num_closed_pulls').notNull().default(0),
    numStars: integer('num_stars').notNull().default(0),
    numWatches: integer('num_watches').notNull().default(0),
    numForks: integer('num_forks').notNull().default(0),
    numReleases: integer('num_releases').notNull().default(0),
    numBranches: integer('num_branches').notNull().default(0),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    topics: text('topics').array().notNull().default(sql`'{}'::text[]`),
    /** SPDX ids of the license files of the default branch (repo_stats rounds; at creation, the chosen template). */
    licenses: text('licenses').array().notNull().default(sql`'{}'::text[]`),
    /** The primary language: the largest of `repo_languages` (repo_stats rounds); '' before or without one. */
    language: text('language').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('repositories_owner_lower_name_key').on(t.ownerId, t.lowerName),
    index('repositories_lower_name_idx').on(t.lowerName),
    index('repositories_updated_idx').on(t.updatedAt),
    index('repositories_fork_idx').on(t.forkId),
  ],
);

export const collaborations = pgTable(
  'collaborations',
  {
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessMode: text('access_mode').$type<AccessMode>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.repoId, t.userId] }), index('collaborations_user_idx').on(t.userId)],
);

export const teamRepos = pgTable(
  'team_repos',
  {
    teamId: bigint('team_id', { mode: 'number' })
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    orgId: bigint('org_id', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.repoId] }), index('team_repos_repo_idx').on(t.repoId)],
);

export const labels = pgTable(
  'labels',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    repoId: bigint('repo_id', { mode: 'number' }).references(() => repositories.id, { onDelete: 'cascade' }),
    orgId: bigint('org_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull(),
    description: text('description').notNull().default(''),
    exclusive: boolean('exclusive').notNull().default(false),
    isArchived: boolean('is_archived').notNull().default(false),
    numIssues: integer('num_issues').notNull().default(0),
    numClosedIssues: integer('num_closed_issues').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('labels_repo_idx').on(t.repoId), index('labels_org_idx').on(t.orgId)],
);

export type RepoRow = typeof repositories.$inferSelect;
export type LabelRow = typeof labels.$inferSelect;

/** `repositories.status` (Gitea's RepositoryStatus values). */
export const repoStatus = { ready: 0, beingMigrated: 1 } as const;
