import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { IssueRow, PullRequestRow, RepoRow, UserRow } from '../db/schema/index.js';
import type { RepoPermission } from '../permissions/repo.js';
import type { IssueDetails } from '../services/issues/issueDetails.js';
import type { ReviewRequestsOfPulls } from '../services/pulls/reviewRequests.js';
import { ghost } from './ghost.js';
import { issueUrls } from './issue.js';
import { orgApiUrl, toLabel } from './label.js';
import { toMilestone } from './milestone.js';
import { toRepository } from './repo.js';
import { toTeam } from './team.js';
import { iso, isoOrNull } from './time.js';
import { toUser } from './user.js';

type Schemas = components['schemas'];

/** Gitea's work-in-progress title prefixes. */
const draftTitle = (title: string) => /^(wip:|\[wip\])/i.test(title);

/** The open review requests of one pull request, as its requested_reviewers and requested_reviewers_teams. */
export function requestedReviewers(requested: ReviewRequestsOfPulls, issueId: number, viewer: UserRow | null, config: Config) {
  const asked = requested.byIssue.get(issueId);
  return {
    users: (asked?.users ?? []).map((u) => toUser(u, viewer, config)),
    teams: (asked?.teams ?? []).map((t) => toTeam(t, requested.teamUnits.get(t.id) ?? {}, null, viewer, config)),
  };
}

/** A repository with its owner and the caller's permission on it. */
export interface PullSide {
  owner: UserRow;
  repo: RepoRow;
  perm: RepoPermission;
}

/**
 * The full PullRequest of the reference. The base is a branch of `target.repo`, shown with the caller's
 * permission; the head a branch of the same repository (`head` undefined), of another one (a fork: its
 * label is `owner:branch`), or of a deleted one (`head` null: repo null, repo_id -1, ref refs/pull/N/head).
 * The statistics are the stored ones.
 */
export function toPullRequest(
  issue: IssueRow,
  pull: PullRequestRow,
  d: IssueDetails,
  target: { owner: UserRow; repo: RepoRow; perm: RepoPermission },
  viewer: UserRow | null,
  config: Config,
  mergedBy?: UserRow,
  requested: { users: Schemas['User'][]; teams: Schemas['Team'][] } = { users: [], teams: [] },
  head?: PullSide | null,
): Schemas['PullRequest'] {
  const { owner, repo } = target;
  const urls = issueUrls(config, owner, repo, issue);
  const repository = toRepository(repo, owner, target.perm, viewer, config);
  const branch = (name: string, sha: string): Schemas['PRBranchInfo'] => ({ label: name, ref: name, sha, repo_id: repo.id, repo: repository });
  const headInfo = (): Schemas['PRBranchInfo'] => {
    if (head === undefined || head?.repo.id === repo.id) return branch(pull.headBranch, pull.headSha);
    if (head === null) return { label: pull.headBranch, ref: `refs/pull/${issue.index}/head`, sha: pull.headSha, repo_id: -1, repo: null };
    return {
      label: `${head.owner.name}:${pull.headBranch}`, ref: pull.headBranch, sha: pull.headSha, repo_id: head.repo.id,
      repo: toRepository(head.repo, head.owner, head.perm, viewer, config),
    };
  };
  const assignees = d.assignees.map((u) => toUser(u, viewer, config));
  const draft = draftTitle(issue.title);
  return {
    id: pull.id,
    url: urls.html,
    number: issue.index,
    user: toUser(d.poster ?? ghost, viewer, config),
    title: issue.title,
    body: issue.body,
    labels: d.labels.map((l) => toLabel(l, urls.repo.api, orgApiUrl(config, owner.name))),
    milestone: d.milestone ? toMilestone(d.milestone) : null,
    assignee: assignees[0] ?? null,
    assignees,
    requested_reviewers: requested.users,
    requested_reviewers_teams: requested.teams,
    state: issue.isClosed ? 'closed' : 'open',
    draft,
    is_locked: issue.isLocked,
    comments: issue.numComments,
    additions: pull.additions,
    deletions: pull.deletions,
    changed_files: pull.changedFiles,
    html_url: urls.html,
    diff_url: `${urls.html}.diff`,
    patch_url: `${urls.html}.patch`,
    // Gitea: a work-in-progress pull request is never mergeable.
    mergeable: pull.mergeable && !draft,
    merged: pull.merged,
    merged_at: isoOrNull(pull.mergedAt),
    merge_commit_sha: pull.mergeCommitSha ?? null,
    merged_by: mergedBy ? toUser(mergedBy, viewer, config) : null,
    allow_maintainer_edit: pull.allowMaintainerEdit,
    base: branch(pull.baseBranch, pull.baseSha),
    head: headInfo(),
    merge_base: pull.mergeBase,
    due_date: isoOrNull(issue.dueDate),
    created_at: iso(issue.createdAt),
    updated_at: iso(issue.updatedAt),
    closed_at: isoOrNull(issue.closedAt),
    pin_order: issue.pinOrder,
    content_version: issue.contentVersion,
  };
}
