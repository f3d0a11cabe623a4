// Gathers what a caller is granted on repositories or an organization — a fixed number of queries
// whatever the number of repositories — and hands it to the pure policies in permissions/.
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  collaborations, orgMembers, repositories, teamMembers, teamRepos, teams, teamUnits, units, users,
  type AccessMode, type RepoRow, type Unit, type UserRow,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { canSeeOwner, type OrgViewer } from '../../permissions/org.js';
import { repoPermission, type RepoPermission, type TeamGrant } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';

/** An Actions task's rights on its own repository: write (read for a fork's pull request) to every enabled unit. */
export function taskPermission(repo: RepoRow, write: boolean): RepoPermission {
  return repoPermission({
    signedIn: true, siteAdmin: false, restricted: false, repoPrivate: repo.isPrivate, enabledUnits: enabledUnits(repo),
    owner: false, ownerVisible: true, teams: [], collaboration: write ? 'write' : 'read',
  });
}

export function enabledUnits(repo: RepoRow): Set<Unit> {
  const on: Record<Unit, boolean> = {
    'repo.code': repo.hasCode,
    'repo.issues': repo.hasIssues && !repo.externalTracker,
    'repo.pulls': repo.hasPullRequests,
    'repo.releases': repo.hasReleases,
    'repo.wiki': repo.hasWiki && !repo.externalWikiUrl,
    'repo.projects': repo.hasProjects,
    'repo.packages': repo.hasPackages,
    'repo.actions': repo.hasActions,
    'repo.ext_issues': repo.hasIssues && !!repo.externalTracker,
    'repo.ext_wiki': repo.hasWiki && !!repo.externalWikiUrl,
  };
  return new Set(units.filter((u) => on[u]));
}

/** Repositories by id, each with its owner and the caller's permission (lists across repositories). */
export type RepoReach = Map<number, { repo: RepoRow; owner: UserRow; perm: RepoPermission }>;

const ownerExpr = (userId: number) =>
  sql<boolean>`exists (select 1 from ${teamMembers} tm join ${teams} t on t.id = tm.team_id
    where tm.user_id = ${userId} and t.org_id = "org_members"."org_id" and t.access_mode = 'owner')`;

export class AccessService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Membership of `user` in several organizations at once: member, and owner (in a team with owner mode). */
  async orgViewers(orgIds: number[], user: UserRow | null, db: Db = this.deps.db): Promise<Map<number, OrgViewer>> {
    const out = new Map<number, OrgViewer>(orgIds.map((id) => [id, { user, isMember: false, isOwner: false }]));
    if (!user || orgIds.length === 0) return out;
    const rows = await db
      .select({ orgId: orgMembers.orgId, owner: ownerExpr(user.id) })
      .from(orgMembers)
      .where(and(inArray(orgMembers.orgId, orgIds), eq(orgMembers.userId, user.id)));
    for (const r of rows) out.set(r.orgId, { user, isMember: true, isOwner: !!r.owner });
    return out;
  }

  async orgViewer(orgId: number, user: UserRow | null, db: Db = this.deps.db): Promise<OrgViewer> {
    return (await this.orgViewers([orgId], user, db)).get(orgId)!;
  }

  /** Whether `viewer` may see `owner` (a user or an organization). */
  async canSeeOwner(owner: UserRow, viewer: UserRow | null): Promise<boolean> {
    if (owner.visibility === 'public') return true;
    if (owner.type !== 'Organization') return canSeeOwner(owner.visibility, selfViewer(owner, viewer));
    return canSeeOwner(owner.visibility, await this.orgViewer(owner.id, viewer));
  }

  /** The caller's access to one repository, per unit. */
  repoPermission(repo: RepoRow, owner: UserRow, actor: UserRow | null): Promise<RepoPermission> {
    return this.repoPermissionIn(this.deps.db, repo, owner, actor);
  }

  /** The same inside a transaction (PGlite has one connection: a query beside an open transaction would wait forever). */
  async repoPermissionIn(db: Db, repo: RepoRow, owner: UserRow, actor: UserRow | null): Promise<RepoPermission> {
    return (await this.repoPermissions([{ repo, owner }], actor, db)).get(repo.id)!;
  }

  /** Repositories by id with their owners and the caller's permission: four queries at most, however many. */
  async reposById(repoIds: number[], actor: UserRow | null, db: Db = this.deps.db): Promise<RepoReach> {
    if (repoIds.length === 0) return new Map();
    const items = await db
      .select({ repo: repositories, owner: users })
      .from(repositories)
      .innerJoin(users, eq(users.id, repositories.ownerId))
      .where(inArray(repositories.id, repoIds));
    const perms = await this.repoPermissions(items, actor, db);
    return new Map(items.map((i) => [i.repo.id, { ...i, perm: perms.get(i.repo.id)! }]));
  }

  /** Permissions for a page of repositories: three queries at most, however long the page. */
  async repoPermissions(items: Array<{ repo: RepoRow; owner: UserRow }>, actor: UserRow | null, db: Db = this.deps.db): Promise<Map<number, RepoPermission>> {
    const repoIds = items.map((i) => i.repo.id);
    const orgIds = [...new Set(items.filter((i) => i.owner.type === 'Organization').map((i) => i.owner.id))];
    const viewers = await this.orgViewers(orgIds, actor, db);
    const collabs = new Map<number, AccessMode>();
    const grants = new Map<number, TeamGrant[]>();
    if (actor && repoIds.length) {
      const rows = await db
        .select({ repoId: collaborations.repoId, mode: collaborations.accessMode })
        .from(collaborations)
        .where(and(eq(collaborations.userId, actor.id), inArray(collaborations.repoId, repoIds)));
      for (const r of rows) collabs.set(r.repoId, r.mode);
      const memberOrgs = orgIds.filter((id) => viewers.get(id)?.isMember);
      if (memberOrgs.length) await this.collectTeamGrants(db, actor.id, memberOrgs, items, grants);
    }
    const out = new Map<number, RepoPermission>();
    for (const { repo, owner } of items) {
      const viewer = owner.type === 'Organization' ? viewers.get(owner.id)! : selfViewer(owner, actor);
      out.set(repo.id, permissionFrom(repo, owner, actor, viewer, grants.get(repo.id) ?? [], collabs.get(repo.id)));
    }
    return out;
  }

  /** The caller's teams in these orgs, their units, and which of the repositories each reaches. */
  private async collectTeamGrants(db: Db, userId: number, orgIds: number[], items: Array<{ repo: RepoRow }>, into: Map<number, TeamGrant[]>) {
    const repoIds = items.map((i) => i.repo.id);
    const rows = await db
      .select({
        teamId: teams.id,
        orgId: teams.orgId,
        mode: teams.accessMode,
        all: teams.includesAllRepositories,
        unit: teamUnits.unit,
        unitMode: teamUnits.accessMode,
        repoId: teamRepos.repoId,
      })
      .from(teams)
      .innerJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, userId)))
      .leftJoin(teamUnits, eq(teamUnits.teamId, teams.id))
      .leftJoin(teamRepos, and(eq(teamRepos.teamId, teams.id), inArray(teamRepos.repoId, repoIds)))
      .where(inArray(teams.orgId, orgIds));
    const byTeam = new Map<number, { orgId: number; all: boolean; grant: TeamGrant; repos: Set<number> }>();
    for (const r of rows) {
      const t = byTeam.get(r.teamId) ?? { orgId: r.orgId, all: r.all, grant: { mode: r.mode, units: {} }, repos: new Set<number>() };
      if (r.unit && r.unitMode) t.grant.units[r.unit] = r.unitMode;
      if (r.repoId) t.repos.add(r.repoId);
      byTeam.set(r.teamId, t);
    }
    for (const { repo } of items) {
      const list = [...byTeam.values()].filter((t) => t.orgId === repo.ownerId && (t.all || t.repos.has(repo.id))).map((t) => t.grant);
      if (list.length) into.set(repo.id, list);
    }
  }
}

/** The caller's grants on one repository, read by the same query that reads it (see `repoGrantFields`). */
export interface RepoGrantColumns {
  collab: AccessMode | null;
  member: boolean;
  orgOwner: boolean;
  teams: TeamGrant[] | null;
}

/**
 * Select fields giving the caller's grants on the repository `repo` of owner `owner` (the tables of the
 * enclosing query) in that query's one round trip; the caller's id is `actor`, by default the placeholder `actor` (0: nobody).
 */
export function repoGrantFields(actor: number | ReturnType<typeof sql.placeholder> = sql.placeholder('actor')) {
  // Spelled out: Drizzle leaves a one-table select's columns unqualified, which a subquery would rebind.
  return {
    collab: sql<AccessMode | null>`(select c.access_mode from ${collaborations} c where c.repo_id = ${sql.raw('"repositories"."id"')} and c.user_id = ${actor})`,
    member: sql<boolean>`exists (select 1 from ${orgMembers} m where m.org_id = ${sql.raw('"users"."id"')} and m.user_id = ${actor})`,
    orgOwner: sql<boolean>`exists (select 1 from ${teamMembers} tm join ${teams} t on t.id = tm.team_id
      where tm.user_id = ${actor} and t.org_id = ${sql.raw('"users"."id"')} and t.access_mode = 'owner')`,
    teams: sql<TeamGrant[] | null>`(select json_agg(json_build_object('mode', t.access_mode, 'units',
        coalesce((select json_object_agg(u.unit, u.access_mode) from ${teamUnits} u where u.team_id = t.id), '{}'::json)))
      from ${teams} t join ${teamMembers} tm on tm.team_id = t.id and tm.user_id = ${actor}
      where t.org_id = ${sql.raw('"users"."id"')} and (t.includes_all_repositories
        or exists (select 1 from ${teamRepos} tr where tr.team_id = t.id and tr.repo_id = ${sql.raw('"repositories"."id"')})))`,
  };
}

/** The permission from grants read with `repoGrantFields`. */
export function permissionFromColumns(repo: RepoRow, owner: UserRow, actor: UserRow | null, g: RepoGrantColumns): RepoPermission {
  if (!actor) return permissionFrom(repo, owner, null, { user: null, isMember: false, isOwner: false }, [], undefined);
  const isOrg = owner.type === 'Organization';
  const viewer: OrgViewer = isOrg ? { user: actor, isMember: g.member, isOwner: g.member && g.orgOwner } : selfViewer(owner, actor);
  // Team grants count only for members, as in `repoPermissions`.
  const teamGrants = isOrg && g.member ? (g.teams ?? []) : [];
  return permissionFrom(repo, owner, actor, viewer, teamGrants, g.collab ?? undefined);
}

function permissionFrom(
  repo: RepoRow, owner: UserRow, actor: UserRow | null, viewer: OrgViewer, teams: TeamGrant[], collaboration: AccessMode | undefined,
): RepoPermission {
  return repoPermission({
    signedIn: !!actor,
    siteAdmin: !!actor?.isAdmin,
    restricted: !!actor?.isRestricted,
    repoPrivate: repo.isPrivate,
    enabledUnits: enabledUnits(repo),
    owner: owner.type === 'Organization' ? viewer.isOwner : !!actor && owner.id === actor.id,
    ownerVisible: canSeeOwner(owner.visibility, viewer),
    teams,
    collaboration,
  });
}

/** For a user-owned repository the "organization" viewer is the owner themselves. */
function selfViewer(owner: UserRow, viewer: UserRow | null): OrgViewer {
  const self = !!viewer && viewer.id === owner.id;
  return { user: viewer, isMember: self, isOwner: self };
}
