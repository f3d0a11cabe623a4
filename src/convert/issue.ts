import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { CommentRow, IssueRow, RepoRow, UserRow } from '../db/schema/index.js';
import type { IssueDetails } from '../services/issues/issueDetails.js';
import type { TimelineRows } from '../services/issues/comments.js';
import { toAttachment } from './attachment.js';
import { ghost } from './ghost.js';
import { orgApiUrl, toLabel } from './label.js';
import { toMilestone } from './milestone.js';
import { toTrackedTime } from './trackedTime.js';
import { repoUrls } from './repo.js';
import { iso, isoOrNull } from './time.js';
import { toUser } from './user.js';

type Schemas = components['schemas'];

export function issueUrls(config: Config, owner: UserRow, repo: RepoRow, issue: IssueRow) {
  const urls = repoUrls(config, owner.name, repo.name);
  return {
    repo: urls,
    api: `${urls.api}/issues/${issue.index}`,
    html: `${urls.html}/${issue.isPull ? 'pulls' : 'issues'}/${issue.index}`,
  };
}

/** `projects`: the issue's projects as the viewer sees them (see present/projects.ts); none when not given. */
export function toIssue(
  issue: IssueRow, d: IssueDetails, owner: UserRow, repo: RepoRow, viewer: UserRow | null, config: Config, projects: Schemas['Project'][] = [],
): Schemas['Issue'] {
  const urls = issueUrls(config, owner, repo, issue);
  const assignees = d.assignees.map((u) => toUser(u, viewer, config));
  return {
    id: issue.id,
    url: urls.api,
    html_url: urls.html,
    number: issue.index,
    user: toUser(d.poster ?? ghost, viewer, config),
    original_author: issue.originalAuthor,
    original_author_id: issue.originalAuthorId,
    title: issue.title,
    body: issue.body,
    ref: issue.ref,
    assets: d.assets.map((a) => toAttachment(a, config)),
    labels: d.labels.map((l) => toLabel(l, urls.repo.api, orgApiUrl(config, owner.name))),
    milestone: d.milestone ? toMilestone(d.milestone) : null,
    assignee: assignees[0] ?? null,
    assignees,
    state: issue.isClosed ? 'closed' : 'open',
    is_locked: issue.isLocked,
    comments: issue.numComments,
    created_at: iso(issue.createdAt),
    updated_at: iso(issue.updatedAt),
    closed_at: isoOrNull(issue.closedAt),
    due_date: isoOrNull(issue.dueDate),
    time_estimate: issue.timeEstimate,
    pull_request: issue.isPull
      ? {
          merged: !!d.pull?.merged,
          merged_at: isoOrNull(d.pull?.mergedAt),
          draft: !!d.pull?.isDraft,
          html_url: urls.html,
        }
      : null,
    repository: { id: repo.id, name: repo.name, owner: owner.name, full_name: `${owner.name}/${repo.name}` },
    pin_order: issue.pinOrder,
    content_version: issue.contentVersion,
    projects,
  };
}

export function toComment(
  c: CommentRow,
  issue: IssueRow,
  poster: UserRow | undefined,
  assets: Schemas['Attachment'][],
  owner: UserRow,
  repo: RepoRow,
  viewer: UserRow | null,
  config: Config,
): Schemas['Comment'] {
  const urls = issueUrls(config, owner, repo, issue);
  return {
    id: c.id,
    html_url: `${urls.html}#issuecomment-${c.id}`,
    pull_request_url: issue.isPull ? urls.html : '',
    issue_url: issue.isPull ? '' : urls.html,
    user: toUser(poster ?? ghost, viewer, config),
    original_author: c.originalAuthor,
    original_author_id: c.originalAuthorId,
    body: c.body,
    assets,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}

/** POST …/deadline's answer: the deadline now set (null when removed). */
export function toIssueDeadline(issue: IssueRow): components['schemas']['IssueDeadline'] {
  return { due_date: isoOrNull(issue.dueDate) };
}

/**
 * What a timeline entry shows besides its own row: the rows CommentService.timelineDetails read, and the
 * issues and comments it names already converted, for those the viewer may read (present/issues.ts).
 */
export interface TimelineDetails extends TimelineRows {
  /** Referencing and dependent issues the viewer may read, and the timeline's own issue (tracked times show it). */
  issueJson: Map<number, Schemas['Issue']>;
  refCommentJson: Map<number, Schemas['Comment']>;
}

/** anvil's stored event names that Gitea spells otherwise (the rest are Gitea's names already). */
const giteaTypeNames: Partial<Record<CommentRow['type'], string>> = { deadline: 'modified_deadline' };

/** Entries whose text is tracked seconds after a `|` (Gitea since 1.21), shown as hours and minutes. */
const timeTypes: ReadonlySet<CommentRow['type']> = new Set(['add_time_manual', 'stop_tracking', 'delete_time_manual']);

/** Gitea's util.SecToHours: `1 hour 5 minutes`, `3 minutes`; seconds only under a minute. */
export function secondsToHours(seconds: number): string {
  const part = (n: number, unit: string) => (n === 1 ? `1 ${unit}` : n > 1 ? `${n} ${unit}s` : '');
  const text = [part(Math.floor(seconds / 3600), 'hour'), part(Math.floor(seconds / 60) % 60, 'minute')].filter(Boolean).join(' ');
  return text === '' && seconds > 0 ? part(seconds, 'second') : text;
}

const refTypes: ReadonlySet<CommentRow['type']> = new Set(['issue_ref', 'pull_ref', 'comment_ref']);
/** Whether a timeline entry may be shown: a reference only when the viewer may read where it comes from (Gitea's isXRefCommentAccessible). */
export function timelineEntryVisible(c: CommentRow, d: Pick<TimelineDetails, 'issueJson'>): boolean {
  return !refTypes.has(c.type) || c.refIssueId === null || d.issueJson.has(c.refIssueId);
}

/** One entry of GET …/timeline: a text comment or a recorded event, as Gitea's TimelineComment. */
export function toTimelineComment(
  c: CommentRow, issue: IssueRow, d: TimelineDetails, owner: UserRow, repo: RepoRow, viewer: UserRow | null, config: Config,
): Schemas['TimelineComment'] {
  const urls = issueUrls(config, owner, repo, issue);
  const idOf = (v: string) => (/^[0-9]{1,15}$/.test(v) ? Number(v) : 0);
  const label = c.type === 'label' ? d.labels.get(idOf(c.newValue)) : undefined;
  const asked = c.type === 'review_request' && c.newValue.startsWith('user:') ? d.users.get(idOf(c.newValue.slice(5))) : undefined;
  const assigned = c.type === 'assignees' && c.assigneeId ? (d.users.get(c.assigneeId) ?? ghost) : undefined;
  const titles = c.type === 'change_title';
  const refs = c.type === 'change_target_branch' || c.type === 'change_issue_ref';
  const milestone = (id: number | null) => {
    const m = c.type === 'milestone' && id ? d.milestones.get(id) : undefined;
    return m ? toMilestone(m) : null;
  };
  const time = c.timeId ? d.times.get(c.timeId) : undefined;
  const body = timeTypes.has(c.type) && c.body.startsWith('|') && /^[0-9]+$/.test(c.body.slice(1)) ? secondsToHours(Number(c.body.slice(1))) : c.body;
  return {
    id: c.id,
    type: giteaTypeNames[c.type] ?? c.type,
    html_url: `${urls.html}#issuecomment-${c.id}`,
    pull_request_url: issue.isPull ? urls.html : '',
    issue_url: issue.isPull ? '' : urls.html,
    user: toUser(d.posters.get(c.posterId) ?? ghost, viewer, config),
    body,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    old_project_id: 0,
    project_id: 0,
    old_milestone: milestone(c.oldMilestoneId),
    milestone: milestone(c.milestoneId),
    tracked_time: time ? toTrackedTime(time, d.users.get(time.userId) ?? null, d.issueJson.get(time.issueId) ?? null) : null,
    old_title: titles ? c.oldValue : '',
    new_title: titles ? c.newValue : '',
    old_ref: refs || c.type === 'delete_branch' ? c.oldValue : '',
    new_ref: refs ? c.newValue : '',
    ref_issue: c.refIssueId ? (d.issueJson.get(c.refIssueId) ?? null) : null,
    ref_comment: c.refCommentId ? (d.refCommentJson.get(c.refCommentId) ?? null) : null,
    // Gitea's XRefAction of every comment: `none` unless a reference closes, reopens or was neutered.
    ref_action: c.refAction || 'none',
    ref_commit_sha: c.type === 'merge_pull' ? c.newValue : c.commitSha,
    review_id: c.type === 'dismiss_review' ? idOf(c.newValue) : 0,
    label: label ? toLabel(label, urls.repo.api, orgApiUrl(config, owner.name)) : null,
    assignee: asked ? toUser(asked, viewer, config) : assigned ? toUser(assigned, viewer, config) : null,
    assignee_team: null,
    removed_assignee: c.removedAssignee,
    resolve_doer: null,
    dependent_issue: c.dependentIssueId ? (d.issueJson.get(c.dependentIssueId) ?? null) : null,
  };
}
