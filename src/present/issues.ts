// Glue shared by handlers that answer issues and comments: load the details of a page in a fixed
// number of queries, then convert.
import { toAttachment } from '../convert/attachment.js';
import { timelineEntryVisible, toComment, toIssue, toTimelineComment } from '../convert/issue.js';
import type { components } from '../../generated/openapi.js';
import { canRead } from '../permissions/repo.js';
import { issueUnit } from '../services/issues/issues.js';
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
type Schemas = components['schemas'];

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

/** Issues whose details were read with them (a page of `issues.list`). */
export async function presentIssuesWithDetails(req: Ctx, loaded: LoadedRepo, rows: Array<{ issue: IssueRow; details: IssueDetails }>) {
  const shown = await projectsOfIssues(req, rows.map((r) => r.details));
  return rows.map(({ issue, details }) => toIssue(issue, details, loaded.owner, loaded.repo, req.auth.actor, req.config, projectsOf(details, shown)));
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

/**
 * A page of an issue's timeline (text comments and events) with what its entries show: posters, labels,
 * users, milestones, tracked times, and the issues and comments references come from and dependencies
 * name, as far as the caller may read them. A reference from an issue the caller cannot read is left out,
 * as Gitea does.
 */
export async function presentTimeline(req: Ctx, loaded: LoadedRepo, issue: IssueRow, rows: CommentRow[]) {
  const rowsOf = await req.services.comments.timelineDetails(rows);
  const others = [...rowsOf.issues.values()].filter((i) => i.id !== issue.id);
  const reach = others.length ? await req.services.access.reposById([...new Set(others.map((i) => i.repoId))], req.auth.actor) : new Map();
  const readable = others.filter((i) => {
    const r = reach.get(i.repoId);
    return r !== undefined && canRead(r.perm, issueUnit(i.isPull));
  });
  const repoOf = (repoId: number) => (repoId === loaded.repo.id ? loaded : reach.get(repoId)!);
  const wanted = [...readable, ...(rowsOf.times.size || rowsOf.issues.has(issue.id) ? [issue] : [])];
  const json = wanted.length ? await presentIssuesAcross(req, wanted, repoOf) : [];
  const issueJson = new Map(wanted.map((i, n) => [i.id, json[n]!]));
  const refCommentJson = new Map<number, Schemas['Comment']>();
  for (const c of rowsOf.refComments.values()) {
    const from = readable.find((i) => i.id === c.issueId);
    if (!from) continue;
    const { repo, owner } = repoOf(from.repoId);
    refCommentJson.set(c.id, toComment(c, from, rowsOf.posters.get(c.posterId), [], owner, repo, req.auth.actor, req.config));
  }
  const d = { ...rowsOf, issueJson, refCommentJson };
  return rows.filter((c) => timelineEntryVisible(c, d)).map((c) => toTimelineComment(c, issue, d, loaded.owner, loaded.repo, req.auth.actor, req.config));
}
