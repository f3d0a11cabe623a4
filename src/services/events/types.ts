// The events anvil records. One union member per Gitea webhook event type; `data` holds what the
// payload builders, the activity feed and the notifier need, as ids and git facts (never API JSON:
// payloads are built from these inside the recording transaction, so they show the state of that moment).
import type { LoggedCommit } from '../../git/pushLog.js';

/** Gitea's HookEventType names: the `X-Gitea-Event-Type` header and a hook's `events`. */
export const hookEventTypes = [
  'create', 'delete', 'fork', 'push',
  'issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment',
  'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
  'pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment',
  'pull_request_sync', 'pull_request_review_request',
  'wiki', 'repository', 'release', 'package', 'status', 'workflow_run', 'workflow_job',
] as const;
export type HookEventType = (typeof hookEventTypes)[number];

/** Activity `op_type` values (the product spec's list). */
export const activityOpTypes = [
  'create_repo', 'rename_repo', 'star_repo', 'watch_repo', 'commit_repo', 'create_issue', 'create_pull_request',
  'transfer_repo', 'push_tag', 'comment_issue', 'merge_pull_request', 'close_issue', 'reopen_issue',
  'close_pull_request', 'reopen_pull_request', 'delete_tag', 'delete_branch', 'mirror_sync_push',
  'mirror_sync_create', 'mirror_sync_delete', 'approve_pull_request', 'reject_pull_request', 'comment_pull',
  'publish_release', 'pull_review_dismissed', 'pull_request_ready_for_review', 'auto_merge_pull_request',
] as const;
export type ActivityOpType = (typeof activityOpTypes)[number];

/** One pushed commit as the push payload and the commit_repo activity show it. */
export type PushCommit = LoggedCommit;

export type EventData =
  /** A ref moved to a new commit (smart-HTTP push, diffpatch, and a new branch's first commit). `before` is all zeros for a new ref. */
  | {
    type: 'push'; ref: string; before: string; after: string; commits: PushCommit[]; totalCommits: number;
    /**
     * Not stored: the commit has no workflow files, so Actions can start nothing; pushed to the default
     * branch ('default'), it may still have schedules to drop.
     */
    noWorkflows?: 'branch' | 'default';
  }
  | { type: 'create' | 'delete'; refType: 'branch' | 'tag'; ref: string; sha: string }
  /** A fork was made of the event's repository; `forkId` is the new repository. */
  | { type: 'fork'; forkId: number }
  | { type: 'repository'; action: 'created' | 'deleted' | 'renamed' | 'edited' | 'transferred'; oldName?: string; oldOwnerName?: string; repoName: string }
  | { type: 'issues' | 'pull_request'; action: 'opened' | 'edited' | 'closed' | 'reopened'; issueId: number; changes?: { title?: { from: string }; body?: { from: string } } }
  | { type: 'issue_label' | 'pull_request_label'; action: 'label_updated' | 'label_cleared'; issueId: number }
  | { type: 'issue_assign' | 'pull_request_assign'; action: 'assigned' | 'unassigned'; issueId: number; assigneeId: number }
  | { type: 'issue_milestone' | 'pull_request_milestone'; action: 'milestoned' | 'demilestoned'; issueId: number; milestoneId: number }
  | { type: 'issue_comment' | 'pull_request_comment'; action: 'created' | 'edited' | 'deleted'; issueId: number; commentId: number; changes?: { body?: { from: string } } }
  | { type: 'pull_request_sync'; action: 'synchronized'; issueId: number; before: string; after: string }
  /** A review was submitted (approval, request for changes, or comment). */
  | { type: 'pull_request_review_approved' | 'pull_request_review_rejected' | 'pull_request_review_comment'; action: 'reviewed'; issueId: number; reviewId: number }
  /** A review was dismissed (no webhook in Gitea: the activity feed shows it). */
  | { type: 'pull_request_review_dismissed'; action: 'dismissed'; issueId: number; reviewId: number }
  /** A review was asked of a user (reviewerId) or a team (teamId), or the request withdrawn. */
  | { type: 'pull_request_review_request'; action: 'review_requested' | 'review_request_removed'; issueId: number; reviewerId: number; teamId: number }
  | { type: 'wiki'; action: 'created' | 'edited' | 'deleted'; page: string; sha: string }
  /** A release was published (created, or a draft made public), edited while published, or deleted while published. */
  | { type: 'release'; action: 'published' | 'updated' | 'deleted'; releaseId: number }
  /** A package version was published (`created`) or deleted; the event is the owner's (no repository), as Gitea's. */
  | { type: 'package'; action: 'created' | 'deleted'; versionId: number }
  /** An Actions job was queued, blocked, started or ended (`queued`, `waiting`, `in_progress`, `completed`). */
  | { type: 'workflow_job'; action: 'queued' | 'waiting' | 'in_progress' | 'completed'; jobId: number }
  /** An Actions run was made or re-run (`requested`), started (`in_progress`) or ended (`completed`). */
  | { type: 'workflow_run'; action: 'requested' | 'in_progress' | 'completed'; runId: number }
  /** A commit status was reported; `commit` is read before the transaction (the payload shows it). */
  | { type: 'status'; statusId: number; sha: string; commit: Omit<LoggedCommit, 'added' | 'removed' | 'modified'> };

/** A change as its service reports it to `recordEvent`. */
export type DomainEvent = EventData & {
  actorId: number;
  /** The repository it happened in (absent for events about an organisation or user only). */
  repoId?: number;
  /** The repository's owner, or the organisation/user the event is about. */
  ownerId?: number;
  /** The repository was private (or the organisation not public) at that moment. */
  isPrivate: boolean;
  /** The activity-feed row this change makes, when it makes one. */
  activity?: { opType: ActivityOpType; refName?: string; content?: string; commentId?: number; issueId?: number };
};

/** A recorded event: what fan-outs receive. */
export type RecordedEvent = DomainEvent & { id: number; createdAt: Date };
