import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { AccessMode, IssueRow, PullReviewCommentRow, RepoRow, Unit, UserRow } from '../db/schema/index.js';
import { stateOf, type ReviewView } from '../services/pulls/reviews.js';
import { issueUrls } from './issue.js';
import { toTeam } from './team.js';
import { iso } from './time.js';
import { toUser } from './user.js';

type Schemas = components['schemas'];

/** A review or review request as Gitea's PullReview. */
export function toPullReview(
  v: ReviewView,
  where: { owner: UserRow; repo: RepoRow; issue: IssueRow },
  teamUnits: Map<number, Partial<Record<Unit, AccessMode>>>,
  viewer: UserRow | null,
  config: Config,
): Schemas['PullReview'] {
  const urls = issueUrls(config, where.owner, where.repo, where.issue);
  const r = v.review;
  return {
    id: r.id,
    user: v.reviewer ? toUser(v.reviewer, viewer, config) : null,
    team: v.team ? toTeam(v.team, teamUnits.get(v.team.id) ?? {}, null, viewer, config) : null,
    state: stateOf[r.type],
    body: r.body,
    commit_id: r.commitId,
    stale: v.stale,
    official: r.official,
    dismissed: r.dismissed,
    comments_count: v.commentCount,
    submitted_at: iso(r.updatedAt),
    updated_at: iso(r.updatedAt),
    html_url: `${urls.html}#pullrequestreview-${r.id}`,
    pull_request_url: urls.html,
  };
}

/** A line comment of a review as Gitea's PullReviewComment. */
export function toPullReviewComment(
  c: PullReviewCommentRow,
  poster: UserRow | undefined,
  where: { owner: UserRow; repo: RepoRow; issue: IssueRow },
  viewer: UserRow | null,
  config: Config,
  resolver?: UserRow,
): Schemas['PullReviewComment'] {
  const urls = issueUrls(config, where.owner, where.repo, where.issue);
  return {
    id: c.id,
    body: c.body,
    user: poster ? toUser(poster, viewer, config) : null,
    resolver: resolver ? toUser(resolver, viewer, config) : null,
    pull_request_review_id: c.reviewId,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    path: c.path,
    commit_id: c.commitId,
    original_commit_id: c.commitId,
    diff_hunk: c.diffHunk,
    position: c.line > 0 ? c.line : 0,
    original_position: c.line < 0 ? -c.line : 0,
    html_url: `${urls.html}/files#issuecomment-${c.id}`,
    pull_request_url: urls.html,
  };
}
