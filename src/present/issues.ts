// Glue shared by handlers that answer issues and comments: load the details of a page in a fixed
// number of queries, then convert.
import { toAttachment } from '../convert/attachment.js';
import { toComment, toIssue, toTimelineComment } from '../convert/issue.js';
import { toTrackedTime } from '../convert/trackedTime.js';
import type { CommentRow, IssueRow, RepoRow, UserRow } from '../db/schema/index.js';
import type { TimeEntry } from '../services/times/times.js';
import { projectsOf, projectsOfIssues } from './projects.js';
import type { LoadedRepo } from '../services/repos/repos.js';
import type { IssueDetails } from '../services/issues/issueDetails.js';
import type { Auth } from '../permissions/caller.js';
import type { Services } from '../services/index.js';
import type { Config } from '../config.js';

type Ctx = { services: Services; auth: Auth; config: Config };

export async function presentIssues(req: Ctx, loaded: LoadedRepo, rows: IssueRow[]) {
  const details = await req.services.issues.details(rows);
  const shown = await projectsOfIssues(req, details.values());
  return rows.map((r) => {
    const d = details.get(r.id)!;
    return toIssue(r, d, loaded.owner, loaded.repo, req.auth.actor, req.config, projectsOf(d, shown));
  });
}

/** Issues of several repositories (`repoOf` gives each one's repository and owner), as GET issue answers each. */
export async function presentIssuesAcross(req: Ctx, rows: IssueRow[], repoOf: (repoId: number) => { repo: RepoRow; owner: UserRow }) {
  const details = await req.services.issues.details(rows);
  const shown = await projectsOfIssues(req, details.values());
  return rows.map((r) => {
    const d = details.get(r.id)!;
    const { repo, owner } = repoOf(r.repoId);
    return toIssue(r, d, owner, repo, req.auth.actor, req.config, projectsOf(d, shown));
  });
}

export async function presentIssue(req: Ctx, loaded: LoadedRepo, row: IssueRow) {
  return (await presentIssues(req, loaded, [row]))[0]!;
}

/** An issue whose details were read with it (`issues.loadWithDetails`). */
export async function presentLoadedIssue(req: Ctx, loaded: LoadedRepo, { issue, details }: { issue: IssueRow; details: IssueDetails }) {
  const shown = await projectsOfIssues(req, [details]);
  return toIssue(issue, details, loaded.owner, loaded.repo, req.auth.actor, req.config, projectsOf(details, shown));
}

export async function presentComments(req: Ctx, loaded: LoadedRepo, issue: IssueRow, rows: CommentRow[]) {
  const { posters, assets } = await req.services.comments.details(rows);
  return rows.map((c) =>
    toComment(c, issue, posters.get(c.posterId), (assets.get(c.id) ?? []).map((a) => toAttachment(a, req.config)), loaded.owner, loaded.repo, req.auth.actor, req.config),
  );
}

/** Comments of several issues of one repository (GET …/issues/comments), each with its own issue's URLs. */
export async function presentRepoComments(req: Ctx, loaded: LoadedRepo, rows: CommentRow[]) {
  const [{ posters, assets }, issues] = await Promise.all([req.services.comments.details(rows), req.services.issueThreads.issuesById(rows.map((c) => c.issueId))]);
  return rows.map((c) =>
    toComment(c, issues.get(c.issueId)!, posters.get(c.posterId), (assets.get(c.id) ?? []).map((a) => toAttachment(a, req.config)), loaded.owner, loaded.repo, req.auth.actor, req.config),
  );
}

/** Tracked times with their issues, from one repository or several (`repoOf` gives each one's repository and owner). */
export async function presentTrackedTimes(req: Ctx, entries: TimeEntry[], repoOf: (repoId: number) => { repo: RepoRow; owner: UserRow }) {
  const issues = [...new Map(entries.map((e) => [e.issue.id, e.issue])).values()];
  const details = await req.services.issues.details(issues);
  const shown = await projectsOfIssues(req, details.values());
  return entries.map((e) => {
    const { repo, owner } = repoOf(e.issue.repoId);
    const d = details.get(e.issue.id)!;
    return toTrackedTime(e.time, e.user, toIssue(e.issue, d, owner, repo, req.auth.actor, req.config, projectsOf(d, shown)));
  });
}

/** A page of an issue's timeline (text comments and events) with the posters, labels and users it shows. */
export async function presentTimeline(req: Ctx, loaded: LoadedRepo, issue: IssueRow, rows: CommentRow[]) {
  const d = await req.services.comments.timelineDetails(rows);
  return rows.map((c) => toTimelineComment(c, issue, d, loaded.owner, loaded.repo, req.auth.actor, req.config));
}
