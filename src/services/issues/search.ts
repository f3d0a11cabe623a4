// Issues and pull requests across every repository the caller may read (Gitea's GET /repos/issues/search):
// the visibility of each repository and the caller's access to its issues or pull requests unit are
// conditions of the one paginated query, so no item is checked on its own.
import { and, count, desc, eq, gte, ilike, inArray, lte, not, or, sql, type SQL } from 'drizzle-orm';
import {
  collaborations, comments, issueAssignees, issueLabels, issueMentions, issues, labels, milestones, pullReviews, repositories,
  teamMembers, teamRepos, teams, teamUnits, users, type IssueRow, type RepoRow, type Unit, type UserRow,
} from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest } from '../errors.js';
import { visibleTo } from '../repos/repoQuery.js';
import { issueTextMatch, keywordOf } from './textMatch.js';

export interface IssueSearchInput {
  state?: 'open' | 'closed' | 'all';
  type?: 'issues' | 'pulls';
  labels?: string[];
  milestones?: string[];
  q?: string;
  priorityRepoId?: number;
  since?: string;
  before?: string;
  assigned?: boolean;
  created?: boolean;
  mentioned?: boolean;
  reviewRequested?: boolean;
  reviewed?: boolean;
  /** Name of the user or organization whose repositories are searched. */
  owner?: string;
  /** Name of a team of `owner` whose repositories are searched. */
  team?: string;
}

// Spelled out: Drizzle leaves a one-table select's columns unqualified, which a subquery would rebind.
const repoId = sql.raw('"repositories"."id"');
const ownerId = sql.raw('"repositories"."owner_id"');

/** The unit is switched on for the repository (enabledUnits in SQL); code always is. */
function unitEnabled(unit: 'repo.issues' | 'repo.pulls' | 'repo.code'): SQL {
  if (unit === 'repo.code') return sql`true`;
  return unit === 'repo.issues'
    ? sql`(${repositories.hasIssues} and ${repositories.externalTracker} is null)`
    : sql`${repositories.hasPullRequests}`;
}

/**
 * The caller reads `unit` of a repository it can see: site admins, public read (not for restricted
 * users), the owner, a collaborator, or a team of the owner that holds the repository and grants the unit.
 */
export function unitReadable(viewer: UserRow | null, unit: 'repo.issues' | 'repo.pulls' | 'repo.code'): SQL {
  if (viewer?.isAdmin) return unitEnabled(unit);
  const publicRead = viewer?.isRestricted ? undefined : not(repositories.isPrivate);
  const granted = viewer
    ? sql`(${ownerId} = ${viewer.id}
      or ${repoId} in (select c.repo_id from ${collaborations} c where c.user_id = ${viewer.id})
      or exists (select 1 from ${teams} t join ${teamMembers} tm on tm.team_id = t.id and tm.user_id = ${viewer.id}
        where t.org_id = ${ownerId}
          and (t.includes_all_repositories or exists (select 1 from ${teamRepos} tr where tr.team_id = t.id and tr.repo_id = ${repoId}))
          and (t.access_mode in ('admin', 'owner')
            or exists (select 1 from ${teamUnits} u where u.team_id = t.id and u.unit = ${unit} and u.access_mode <> 'none'))))`
    : undefined;
  return and(unitEnabled(unit), or(publicRead, granted) ?? sql`false`)!;
}

export class IssueSearchService {
  constructor(private readonly deps: ServiceDeps) {}

  async search(viewer: UserRow | null, f: IssueSearchInput, page: { limit: number; offset: number }): Promise<{
    rows: IssueRow[]; total: number; repos: Map<number, { repo: RepoRow; owner: UserRow }>;
  }> {
    const { db } = this.deps;
    const conds: Array<SQL | undefined> = [
      visibleTo(viewer),
      or(and(eq(issues.isPull, false), unitReadable(viewer, 'repo.issues')), and(eq(issues.isPull, true), unitReadable(viewer, 'repo.pulls'))),
    ];
    conds.push(...(await this.ownerAndTeam(f)));
    if (f.state !== 'all') conds.push(eq(issues.isClosed, f.state === 'closed'));
    if (f.type) conds.push(eq(issues.isPull, f.type === 'pulls'));
    const q = keywordOf(f.q);
    if (q) conds.push(issueTextMatch(q));
    if (f.since) conds.push(gte(issues.updatedAt, new Date(f.since)));
    if (f.before) conds.push(lte(issues.updatedAt, new Date(f.before)));
    const wantedLabels = [...new Set((f.labels ?? []).map((l) => l.toLowerCase()))];
    if (wantedLabels.length) {
      conds.push(sql`exists (select 1 from ${issueLabels} il join ${labels} l on l.id = il.label_id
        where il.issue_id = ${issues.id} and lower(l.name) in ${wantedLabels})`);
    }
    const wantedMilestones = [...new Set((f.milestones ?? []).map((m) => m.toLowerCase()))];
    if (wantedMilestones.length) {
      conds.push(sql`${issues.milestoneId} in (select m.id from ${milestones} m where lower(m.name) in ${wantedMilestones})`);
    }
    // The caller's own filters mean nothing for anonymous callers (ignored, as in Gitea).
    if (viewer) {
      if (f.created) conds.push(eq(issues.posterId, viewer.id));
      if (f.assigned) conds.push(sql`exists (select 1 from ${issueAssignees} ia where ia.issue_id = ${issues.id} and ia.user_id = ${viewer.id})`);
      if (f.mentioned) conds.push(sql`exists (select 1 from ${issueMentions} im where im.issue_id = ${issues.id} and im.user_id = ${viewer.id})`);
      if (f.reviewRequested) {
        conds.push(sql`exists (select 1 from ${pullReviews} r where r.issue_id = ${issues.id} and r.type = 'request'
          and (r.reviewer_id = ${viewer.id} or (r.team_id <> 0 and r.team_id in (select tm.team_id from ${teamMembers} tm where tm.user_id = ${viewer.id}))))`);
      }
      if (f.reviewed) {
        conds.push(sql`exists (select 1 from ${pullReviews} r where r.issue_id = ${issues.id} and r.reviewer_id = ${viewer.id}
          and r.type in ('approve', 'reject', 'comment'))`);
      }
    }
    const where = and(...conds);
    const order = [
      ...(f.priorityRepoId ? [sql`(${issues.repoId} = ${f.priorityRepoId}) desc`] : []),
      desc(issues.createdAt), desc(issues.id),
    ];
    const pageIds = db.select({ id: issues.id }).from(issues)
      .innerJoin(repositories, eq(repositories.id, issues.repoId)).innerJoin(users, eq(users.id, repositories.ownerId))
      .where(where).orderBy(...order).limit(page.limit).offset(page.offset);
    const [rows, [total]] = await Promise.all([
      db.select().from(issues).where(inArray(issues.id, pageIds)).orderBy(...order),
      db.select({ n: count() }).from(issues)
        .innerJoin(repositories, eq(repositories.id, issues.repoId)).innerJoin(users, eq(users.id, repositories.ownerId)).where(where),
    ]);
    const repoIds = [...new Set(rows.map((r) => r.repoId))];
    const repos = new Map<number, { repo: RepoRow; owner: UserRow }>();
    if (repoIds.length) {
      for (const r of await db.select({ repo: repositories, owner: users }).from(repositories)
        .innerJoin(users, eq(users.id, repositories.ownerId)).where(inArray(repositories.id, repoIds))) {
        repos.set(r.repo.id, r);
      }
    }
    return { rows, total: total?.n ?? 0, repos };
  }

  /** `owner` (400 when no such user) and `team` (400 without `owner` or when the team does not exist), as Gitea. */
  private async ownerAndTeam(f: IssueSearchInput): Promise<SQL[]> {
    const { db } = this.deps;
    const out: SQL[] = [];
    if (f.team && !f.owner) throw new BadRequest('Owner organisation is required for filtering on team');
    if (!f.owner) return out;
    const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.lowerName, f.owner.toLowerCase()));
    if (!owner) throw new BadRequest(`user does not exist [name: ${f.owner}]`);
    out.push(eq(repositories.ownerId, owner.id));
    if (f.team) {
      const [team] = await db.select().from(teams).where(and(eq(teams.orgId, owner.id), eq(teams.lowerName, f.team.toLowerCase())));
      if (!team) throw new BadRequest(`team does not exist [org_id: ${owner.id}, name: ${f.team}]`);
      if (!team.includesAllRepositories) {
        out.push(sql`${repoId} in (select tr.repo_id from ${teamRepos} tr where tr.team_id = ${team.id})`);
      }
    }
    return out;
  }
}

