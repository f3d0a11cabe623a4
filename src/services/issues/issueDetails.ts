// Everything an Issue or PullRequest answer shows besides the row (poster, labels, assignees, milestone,
// attachments, pull request), for one issue or a whole page, in one query: each part is a JSON
// subquery on the issue's own indexes, turned back into rows by db/jsonRows.ts.
import { eq, and, sql, type SQL } from 'drizzle-orm';
import {
  attachments, issueAssignees, issueLabels, issues, labels, milestones, projectIssues, projects, pullRequests, users,
  type AttachmentRow, type IssueRow, type LabelRow, type MilestoneRow, type ProjectRow, type PullRequestRow, type UserRow,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { rowFromJson, rowsFromJson } from '../../db/jsonRows.js';

export interface IssueDetails {
  poster: UserRow | undefined;
  labels: LabelRow[];
  assignees: UserRow[];
  milestone: MilestoneRow | undefined;
  assets: AttachmentRow[];
  pull: PullRequestRow | undefined;
  /** The organization projects whose boards hold the issue. */
  projects: ProjectRow[];
}

type Json = Record<string, unknown>;

// Drizzle writes a one-table select's columns unqualified, which inside a subquery would name the
// subquery's own table: the outer issue's columns are spelled out.
const outer = (column: string) => sql.raw(`"issues"."${column}"`);

/** The detail columns of an issue row `issues` of the enclosing query. */
function detailFields() {
  return {
    poster: sql<Json | null>`(select row_to_json(u) from ${users} u where u.id = ${outer('poster_id')})`,
    labels: sql<Json[]>`(select coalesce(json_agg(row_to_json(l) order by l.name), '[]'::json)
      from ${issueLabels} il join ${labels} l on l.id = il.label_id where il.issue_id = ${outer('id')})`,
    assignees: sql<Json[]>`(select coalesce(json_agg(row_to_json(u) order by ia.created_at, u.id), '[]'::json)
      from ${issueAssignees} ia join ${users} u on u.id = ia.user_id where ia.issue_id = ${outer('id')})`,
    milestone: sql<Json | null>`(select row_to_json(m) from ${milestones} m where m.id = ${outer('milestone_id')})`,
    assets: sql<Json[]>`(select coalesce(json_agg(row_to_json(a) order by a.id), '[]'::json)
      from ${attachments} a where a.issue_id = ${outer('id')} and a.comment_id is null)`,
    pull: sql<Json | null>`(select row_to_json(p) from ${pullRequests} p where p.issue_id = ${outer('id')})`,
    projects: sql<Json[]>`(select coalesce(json_agg(row_to_json(pr) order by pr.id), '[]'::json)
      from ${projectIssues} pi join ${projects} pr on pr.id = pi.project_id where pi.issue_id = ${outer('id')})`,
  };
}

/** Issues with their details: select `{ issue, ...details }` from issues where `where`. */
export function issuesWithDetails(db: Db, where: SQL | undefined) {
  return db.select({ issue: issues, ...detailFields() }).from(issues).where(where);
}

type DetailColumns = { poster: Json | null; labels: Json[]; assignees: Json[]; milestone: Json | null; assets: Json[]; pull: Json | null; projects: Json[] };

export function detailsFromColumns(c: DetailColumns): IssueDetails {
  return {
    poster: c.poster ? rowFromJson(users, c.poster) : undefined,
    labels: rowsFromJson(labels, c.labels),
    assignees: rowsFromJson(users, c.assignees),
    milestone: c.milestone ? rowFromJson(milestones, c.milestone) : undefined,
    assets: rowsFromJson(attachments, c.assets),
    pull: c.pull ? rowFromJson(pullRequests, c.pull) : undefined,
    projects: rowsFromJson(projects, c.projects),
  };
}

/** By id; `db` may be a transaction. */
export async function loadIssueDetails(db: Db, rows: IssueRow[]): Promise<Map<number, IssueDetails>> {
  const out = new Map<number, IssueDetails>();
  if (rows.length === 0) return out;
  const found = await issuesWithDetails(db, sql`${issues.id} = any(${sql.param(rows.map((r) => r.id))}::bigint[])`);
  for (const r of found) out.set(r.issue.id, detailsFromColumns(r));
  return out;
}

/** The prepared forms of the hot paths (GET an issue or a pull request, a page of them). */
export function prepareIssueDetailQueries(db: Db) {
  return {
    byIndex: issuesWithDetails(db, and(eq(issues.repoId, sql.placeholder('repo')), eq(issues.index, sql.placeholder('index'))))
      .prepare('issue_with_details_by_index'),
    byIds: issuesWithDetails(db, sql`${issues.id} = any(${sql.placeholder('ids')}::bigint[])`).prepare('issue_details_by_ids'),
  };
}
