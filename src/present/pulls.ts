// Glue shared by the pull request handlers: the details of a page in a fixed number of queries, then convert.
import { requestedReviewers, toPullRequest } from '../convert/pull.js';
import { toPullReview } from '../convert/review.js';
import type { ReviewView } from '../services/pulls/reviews.js';
import type { Config } from '../config.js';
import type { RepoRow } from '../db/schema/index.js';
import type { PullView } from '../services/pulls/pulls.js';
import type { IssueDetails } from '../services/issues/issueDetails.js';
import type { LoadedRepo } from '../services/repos/repos.js';
import type { Services } from '../services/index.js';
import type { Auth } from '../permissions/caller.js';

type Ctx = { services: Services; auth: Auth; config: Config };

/** `repo` replaces the loaded row after a change that moved its counters. */
/** Pull requests as the API answers them; `known`: their issues' details, when already read with them. */
export async function presentPulls(req: Ctx, loaded: LoadedRepo, given: PullView[], repo?: RepoRow, known?: Map<number, IssueDetails>) {
  const viewer = req.auth.actor;
  const [{ details, mergers }, requested, heads, views] = await Promise.all([
    req.services.pulls.details(given, known),
    req.services.reviews.requested(given.map((v) => v.issue.id)),
    req.services.pulls.headRepos(given, viewer),
    req.services.pulls.withCurrentBase(loaded, given),
  ]);
  const target = { ...loaded, repo: repo ?? loaded.repo };
  return views.map((v) => {
    const people = requestedReviewers(requested, v.issue.id, viewer, req.config);
    const head = v.pull.headRepoId === v.pull.repoId ? undefined : (heads.get(v.pull.headRepoId) ?? null);
    return toPullRequest(v.issue, v.pull, details.get(v.issue.id)!, target, viewer, req.config, v.pull.mergedById ? mergers.get(v.pull.mergedById) : undefined, people, head);
  });
}

/** A page of reviews of one pull request, as the API shows them. */
export async function presentReviews(req: Ctx, loaded: LoadedRepo, view: PullView, rows: ReviewView[]) {
  const teamIds = [...new Set(rows.map((r) => r.team?.id).filter((id): id is number => !!id))];
  const teamUnits = teamIds.length ? await req.services.teams.unitsOf(teamIds) : new Map();
  return rows.map((r) => toPullReview(r, { owner: loaded.owner, repo: loaded.repo, issue: view.issue }, teamUnits, req.auth.actor, req.config));
}

export async function presentPull(req: Ctx, loaded: LoadedRepo, view: PullView & { repo?: RepoRow }) {
  return (await presentPulls(req, loaded, [view], view.repo))[0]!;
}
