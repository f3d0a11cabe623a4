// What pull requests have beyond their row in pull_requests: merges scheduled for when the head's
// commit statuses turn green (auto-merge), reviews and review requests, the reviews' line comments, and
// the branch protection rules merges and pushes obey.
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { issues, pullRequests } from './issues.js';
import { repositories } from './repos.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One scheduled merge per pull request: how to merge, and as whom, once the checks succeed. */
export const pullAutoMerges = pgTable('pull_auto_merges', {
  pullId: bigint('pull_id', { mode: 'number' })
    .primaryKey()
    .references(() => pullRequests.id, { onDelete: 'cascade' }),
  doerId: bigint('doer_id', { mode: 'number' }).notNull(),
  style: text('style').notNull(),
  message: text('message').notNull().default(''),
  deleteBranchAfterMerge: boolean('delete_branch_after_merge').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export type PullAutoMergeRow = typeof pullAutoMerges.$inferSelect;

/**
 * Gitea's review types: a review being written (pending, seen by its author only), submitted ones
 * (approve, comment, reject = request changes) and review requests (request). A review request names a
 * user or a team.
 */
export const reviewTypes = ['pending', 'approve', 'comment', 'reject', 'request'] as const;
export type ReviewType = (typeof reviewTypes)[number];

export const pullReviews = pgTable(
  'pull_reviews',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    issueId: bigint('issue_id', { mode: 'number' })
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    repoId: bigint('repo_id', { mode: 'number' }).notNull(),
    /** The reviewer (or the requested user); 0 for a team's review request. */
    reviewerId: bigint('reviewer_id', { mode: 'number' }).notNull().default(0),
    /** The requested team, for a team's review request; 0 otherwise. */
    teamId: bigint('team_id', { mode: 'number' }).notNull().default(0),
    type: text('type').$type<ReviewType>().notNull(),
    body: text('body').notNull().default(''),
    /** The head commit the review was made on. */
    commitId: text('commit_id').notNull().default(''),
    /** Made by someone who may merge (write access to the code): counts for required approvals. */
    official: boolean('official').notNull().default(false),
    dismissed: boolean('dismissed').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('pull_reviews_issue_idx').on(t.issueId, t.reviewerId)],
);

/** Comments on lines of a pull request's diff, made within a review. */
export const pullReviewComments = pgTable(
  'pull_review_comments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    reviewId: bigint('review_id', { mode: 'number' })
      .notNull()
      .references(() => pullReviews.id, { onDelete: 'cascade' }),
    issueId: bigint('issue_id', { mode: 'number' }).notNull(),
    posterId: bigint('poster_id', { mode: 'number' }).notNull(),
    body: text('body').notNull().default(''),
    path: text('path').notNull(),
    /** The line: positive on the new side of the diff, negative on the old side. */
    line: integer('line').notNull().default(0),
    commitId: text('commit_id').notNull().default(''),
    /** The diff hunk up to the commented line. */
    diffHunk: text('diff_hunk').notNull().default(''),
    /** Who marked the conversation resolved (Gitea's ResolveDoerID); null while it is open. */
    resolveDoerId: bigint('resolve_doer_id', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('pull_review_comments_review_idx').on(t.reviewId)],
);

export type PullReviewRow = typeof pullReviews.$inferSelect;
export type PullReviewCommentRow = typeof pullReviewComments.$inferSelect;

/** A branch protection rule's settings, as the API names them (Gitea's BranchProtection, users and teams by id). */
export interface ProtectionSettings {
  enablePush: boolean;
  enablePushWhitelist: boolean;
  pushWhitelistUserIds: number[];
  pushWhitelistTeamIds: number[];
  pushWhitelistDeployKeys: boolean;
  enableForcePush: boolean;
  enableForcePushAllowlist: boolean;
  forcePushAllowlistUserIds: number[];
  forcePushAllowlistTeamIds: number[];
  forcePushAllowlistDeployKeys: boolean;
  enableMergeWhitelist: boolean;
  mergeWhitelistUserIds: number[];
  mergeWhitelistTeamIds: number[];
  enableStatusCheck: boolean;
  statusCheckContexts: string[];
  requiredApprovals: number;
  enableApprovalsWhitelist: boolean;
  approvalsWhitelistUserIds: number[];
  approvalsWhitelistTeamIds: number[];
  blockOnRejectedReviews: boolean;
  blockOnOfficialReviewRequests: boolean;
  blockOnOutdatedBranch: boolean;
  dismissStaleApprovals: boolean;
  ignoreStaleApprovals: boolean;
  blockAdminMergeOverride: boolean;
}

/** Branch protection rules: a branch name or a glob (`release/*`); the first matching rule applies (exact names before globs, then by priority). */
export const branchProtections = pgTable(
  'branch_protections',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    ruleName: text('rule_name').notNull(),
    priority: bigint('priority', { mode: 'number' }).notNull().default(0),
    settings: jsonb('settings').$type<ProtectionSettings>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('branch_protections_rule_key').on(t.repoId, t.ruleName)],
);

export type BranchProtectionRow = typeof branchProtections.$inferSelect;
