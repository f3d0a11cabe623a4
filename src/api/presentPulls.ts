// Glue shared by the pull request handlers: the details of a page in a fixed number of queries, then convert.
import { toPullRequest } from '../convert/pull.js';
import type { Config } from '../config.js';
import type { RepoRow } from '../db/schema/index.js';
import type { PullView } from '../services/pulls/pulls.js';
import type { LoadedRepo } from '../services/repos/repos.js';
import type { Services } from '../services/index.js';
import type { Auth } from './auth.js';

type Ctx = { services: Services; auth: Auth; config: Config };

/** `repo` replaces the loaded row after a change that moved its counters. */
export async function presentPulls(req: Ctx, loaded: LoadedRepo, views: PullView[], repo?: RepoRow) {
  const { details, mergers } = await req.services.pulls.details(views);
  const target = { ...loaded, repo: repo ?? loaded.repo };
  return views.map((v) =>
    toPullRequest(v.issue, v.pull, details.get(v.issue.id)!, target, req.auth.actor, req.config, v.pull.mergedById ? mergers.get(v.pull.mergedById) : undefined),
  );
}

export async function presentPull(req: Ctx, loaded: LoadedRepo, view: PullView & { repo?: RepoRow }) {
  return (await presentPulls(req, loaded, [view], view.repo))[0]!;
}
