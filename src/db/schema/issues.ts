// Issues and pull requests (one numbering per repository), comments, milestones, labels on issues,
// attachments and content history.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, type AnyPgColumn, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { releases } from './releases.js';
import { labels, repositories } from './repos.js';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const repoRef = () =>
  bigint('repo_id', { mode: 'number' })
    .notNull()
    .references(() => repositories.id, { onDelete: 'cascade' });
/** Authors stay when an account goes: the column keeps the id, the API shows the ghost user. */
const userId = (name: string) => bigint(name, { mode: 'number' }).notNull();

/** The per-repository counter issues and pull requests draw their numbers from (gap-free: bumped in the creating transaction). */
export const issueCounters = pgTable('issue_counters', {
  repoId: bigint('repo_id', { mode: 'number' })
    .primaryKey()
    .references(() => repositories.id, { onDelete: 'cascade' }),
  lastIndex: bigint('last_index', { mode: 'number' }).notNull().default(0),
});

export const milestones = pgTable(
  'milestones',
  {
    id: id(),
    repoId: repoRef(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isClosed: boolean('is_closed').notNull().default(false),
    numIssues: integer('num_issues').notNull().default(0),
    numClosedIssues: integer('num_closed_issues').notNull().default(0),
    dueOn: ts('due_on'),
    closedAt: ts('closed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('milestones_repo_idx').on(t.repoId, t.isClosed)],
);

export const issues = pgTable(
  'issues',
  {
    id: id(),
    repoId: repoRef(),
    index: bigint('index', { mode: 'number' }).notNull(),
    posterId: userId('poster_id'),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    isPull: boolean('is_pull').notNull().default(false),
    isClosed: boolean('is_closed').notNull().default(false),
    isLocked: boolean('is_locked').notNull().default(false),
    milestoneId: bigint('milestone_id', { mode: 'number' }).references(() => milestones.id, { onDelete: 'set null' }),
    contentVersion: integer('content_version').notNull().default(0),
    pinOrder: integer('pin_order').notNull().default(0),
    timeEstimate: bigint('time_estimate', { mode: 'number' }).notNull().default(0),
    numComments: integer('num_comments').notNull().default(0),
    ref: text('ref').notNull().default(''),
    originalAuthor: text('original_author').notNull().default(''),
    originalAuthorId: bigint('original_author_id', { mode: 'number' }).notNull().default(0),
    dueDate: ts('due_date'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    closedAt: ts('closed_at'),
  },
  (t) => [
    uniqueIndex('issues_repo_index_key').on(t.repoId, t.index),
    // Lists read in index order (newest first, id breaking ties), with or without a state: no sort of the repository's issues.
    index('issues_repo_list_idx').on(t.repoId, t.isPull, t.isClosed, t.createdAt, t.id),
    index('issues_repo_all_idx').on(t.repoId, t.isPull, t.createdAt, t.id),
    index('issues_milestone_idx').on(t.milestoneId),
    index('issues_poster_idx').on(t.posterId),
    // Search (#41): trigram indexes answer Gitea's case-insensitive substring match (`ILIKE '%word%'`)
    // without reading every row, and PostgreSQL keeps them in step in the writing transaction.
    index('issues_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')),
    index('issues_body_trgm_idx').using('gin', t.body.op('gin_trgm_ops')),
    // `q=#12` across repositories: the number alone.
    index('issues_number_idx').on(t.index),
  ],
);

const issueRef = () =>
  bigint('issue_id', { mode: 'number' })
    .notNull()
    .references(() => issues.id, { onDelete: 'cascade' });

export const issueAssignees = pgTable(
  'issue_assignees',
  {
    issueId: issueRef(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.userId] }), index('issue_assignees_user_idx').on(t.userId)],
);

export const issueLabels = pgTable(
  'issue_labels',
  {
    issueId: issueRef(),
    labelId: bigint('label_id', { mode: 'number' })
      .notNull()
      .references(() => labels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.labelId] }), index('issue_labels_label_idx').on(t.labelId)],
);

export const commentTypes = [
  'comment', 'close', 'reopen', 'change_title', 'change_target_branch', 'assignees', 'label', 'milestone', 'deadline',
  'merge_pull', 'delete_branch', 'pull_scheduled_merge', 'pull_cancel_scheduled_merge', 'review_request', 'dismiss_review',
  'lock', 'unlock', 'pin', 'unpin',
  // Gitea's other event types (#38): cross references, time tracking, deadlines, dependencies.
  'issue_ref', 'commit_ref', 'comment_ref', 'pull_ref', 'start_tracking', 'stop_tracking', 'add_time_manual', 'cancel_tracking',
  'delete_time_manual', 'added_deadline', 'modified_deadline', 'removed_deadline', 'add_dependency', 'remove_dependency', 'change_issue_ref',
] as const;
export type CommentType = (typeof commentTypes)[number];

export const comments = pgTable(
  'comments',
  {
    id: id(),
    issueId: issueRef(),
    repoId: repoRef(),
    posterId: userId('poster_id'),
    type: text('type').$type<CommentType>().notNull().default('comment'),
    body: text('body').notNull().default(''),
    /** Event comments (title changes, ...) keep what changed here. */
    oldValue: text('old_value').notNull().default(''),
    newValue: text('new_value').notNull().default(''),
    /** `assignees`: the user assigned or (removedAssignee) unassigned; no foreign key, a gone account is the ghost. */
    assigneeId: bigint('assignee_id', { mode: 'number' }),
    removedAssignee: boolean('removed_assignee').notNull().default(false),
    /** `milestone`: the milestones before and after (a deleted milestone shows as null). */
    oldMilestoneId: bigint('old_milestone_id', { mode: 'number' }),
    milestoneId: bigint('milestone_id', { mode: 'number' }),
    /** `add_time_manual`, `stop_tracking`: the tracked time recorded with the event (null once it is deleted). */
    timeId: bigint('time_id', { mode: 'number' }),
    /** `add_dependency`, `remove_dependency`: the issue on the other side of the link; goes with it, as in Gitea. */
    dependentIssueId: bigint('dependent_issue_id', { mode: 'number' }).references((): AnyPgColumn => issues.id, { onDelete: 'cascade' }),
    /** Cross references (`issue_ref`, `pull_ref`, `comment_ref`): the issue (and comment) that mentions this one. */
    refIssueId: bigint('ref_issue_id', { mode: 'number' }).references((): AnyPgColumn => issues.id, { onDelete: 'cascade' }),
    refCommentId: bigint('ref_comment_id', { mode: 'number' }).references((): AnyPgColumn => comments.id, { onDelete: 'set null' }),
    /** Gitea's XRefAction: `none`, `closes`, `reopens`, `neutered` (the mention was edited away); '' for other types. */
    refAction: text('ref_action').notNull().default(''),
    /** `commit_ref`: the commit whose message mentions the issue. */
    commitSha: text('commit_sha').notNull().default(''),
    contentVersion: integer('content_version').notNull().default(0),
    originalAuthor: text('original_author').notNull().default(''),
    originalAuthorId: bigint('original_author_id', { mode: 'number' }).notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('comments_issue_idx').on(t.issueId, t.createdAt), index('comments_repo_idx').on(t.repoId),
    // The references an issue or comment made (replaced on edit) and the links that go with an issue.
    index('comments_ref_issue_idx').on(t.refIssueId, t.refCommentId).where(sql`ref_issue_id is not null`),
    index('comments_dependent_issue_idx').on(t.dependentIssueId).where(sql`dependent_issue_id is not null`),
    index('comments_ref_comment_idx').on(t.refCommentId).where(sql`ref_comment_id is not null`),
    // One `commit_ref` entry per issue and commit, whichever push (branch, process) records it first.
    uniqueIndex('comments_commit_ref_uq').on(t.issueId, t.commitSha).where(sql`type = 'commit_ref'`),
    // Search (#41) matches the text of plain comments only (Gitea's CommentTypeComment).
    index('comments_body_trgm_idx').using('gin', t.body.op('gin_trgm_ops')).where(sql`type = 'comment'`),
  ],
);

/** Every version of an issue's or comment's text, the original first (Gitea's content history). */
export const contentHistory = pgTable(
  'content_history',
  {
    id: id(),
    issueId: issueRef(),
    /** 0 for the issue's own body. */
    commentId: bigint('comment_id', { mode: 'number' }).notNull().default(0),
    editorId: userId('editor_id'),
    content: text('content').notNull(),
    isFirstCreated: boolean('is_first_created').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('content_history_target_idx').on(t.issueId, t.commentId, t.createdAt)],
);

export const attachments = pgTable(
  'attachments',
  {
    id: id(),
    uuid: text('uuid').notNull(),
    repoId: repoRef(),
    issueId: bigint('issue_id', { mode: 'number' }).references(() => issues.id, { onDelete: 'cascade' }),
    commentId: bigint('comment_id', { mode: 'number' }).references(() => comments.id, { onDelete: 'cascade' }),
    /** Set for a release asset (issue_id and comment_id are then null). */
    releaseId: bigint('release_id', { mode: 'number' }).references(() => releases.id, { onDelete: 'cascade' }),
    uploaderId: userId('uploader_id'),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    downloadCount: bigint('download_count', { mode: 'number' }).notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('attachments_uuid_key').on(t.uuid),
    index('attachments_issue_idx').on(t.issueId),
    index('attachments_comment_idx').on(t.commentId),
    index('attachments_release_idx').on(t.releaseId),
  ],
);

export const pullRequests = pgTable(
  'pull_requests',
  {
    id: id(),
    issueId: bigint('issue_id', { mode: 'number' })
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    repoId: repoRef(),
    /**
     * The repository of the head branch: repo_id itself, or a fork of it (or its parent). Not a foreign
     * key: a deleted head repository leaves its id, as Gitea keeps HeadRepoID, and the pull request is
     * then shown with a head repository of null.
     */
    headRepoId: bigint('head_repo_id', { mode: 'number' }).notNull(),
    headBranch: text('head_branch').notNull(),
    baseBranch: text('base_branch').notNull(),
    /** Branch tips and the diff statistics, computed when the pull request or its branches change. */
    headSha: text('head_sha').notNull().default(''),
    baseSha: text('base_sha').notNull().default(''),
    mergeBase: text('merge_base').notNull().default(''),
    additions: integer('additions').notNull().default(0),
    deletions: integer('deletions').notNull().default(0),
    changedFiles: integer('changed_files').notNull().default(0),
    mergeable: boolean('mergeable').notNull().default(true),
    merged: boolean('merged').notNull().default(false),
    mergedAt: ts('merged_at'),
    mergedById: bigint('merged_by_id', { mode: 'number' }),
    mergeCommitSha: text('merge_commit_sha'),
    allowMaintainerEdit: boolean('allow_maintainer_edit').notNull().default(false),
    isDraft: boolean('is_draft').notNull().default(false),
    /**
     * A merge under way: who claimed it and when (one merge at a time, across processes), and once the
     * merge commit exists, its id — so a merge whose branch moved but whose process died before recording
     * it is completed later instead of lost.
     */
    mergePending: jsonb('merge_pending').$type<MergePending>(),
  },
  (t) => [uniqueIndex('pull_requests_issue_key').on(t.issueId), index('pull_requests_branches_idx').on(t.repoId, t.headBranch, t.baseBranch),
    // The pull requests whose head is a branch of a given repository (a push to a fork syncs them).
    index('pull_requests_head_idx').on(t.headRepoId, t.headBranch),
  ],
);

/**
 * Reactions (Gitea's `reaction`): one per user (or migrated original author), kind and target. A reaction to the issue itself has no
 * comment_id; the two partial unique indexes keep "one per user and kind" for both targets.
 */
export const reactions = pgTable(
  'reactions',
  {
    id: id(),
    issueId: issueRef(),
    commentId: bigint('comment_id', { mode: 'number' }).references(() => comments.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /**
     * A migrated reaction (#39): the source's account that gave it (user_id is then the migrating user,
     * and the API shows Gitea's stand-in user `name(Gitea)`); '' for reactions given here.
     */
    originalAuthor: text('original_author').notNull().default(''),
    originalAuthorId: bigint('original_author_id', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('reactions_issue_key').on(t.issueId, t.userId, t.type, t.originalAuthor).where(sql`comment_id is null`),
    uniqueIndex('reactions_comment_key').on(t.commentId, t.userId, t.type, t.originalAuthor).where(sql`comment_id is not null`),
    index('reactions_issue_idx').on(t.issueId, t.createdAt),
  ],
);

/**
 * Issue dependencies (Gitea's `issue_dependency`): `issue_id` depends on (is blocked by) `dependency_id`,
 * possibly of another repository. A closed dependency stops blocking.
 */
export const issueDependencies = pgTable(
  'issue_dependencies',
  {
    issueId: issueRef(),
    dependencyId: bigint('dependency_id', { mode: 'number' })
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    userId: userId('user_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.dependencyId] }), index('issue_dependencies_dependency_idx').on(t.dependencyId)],
);

export type IssueRow = typeof issues.$inferSelect;
export type ReactionRow = typeof reactions.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;
export type MilestoneRow = typeof milestones.$inferSelect;
export type AttachmentRow = typeof attachments.$inferSelect;
export type PullRequestRow = typeof pullRequests.$inferSelect;

export interface MergePending {
  byId: number;
  /** ISO time of the claim; a claim older than the merge lease is abandoned. */
  at: string;
  /** The commit the base branch is being moved to (set just before the move). */
  sha?: string;
  /** The base branch's tip the merge was built on. */
  from?: string;
  style: string;
  auto?: boolean;
}
