// Gathers what a caller is granted on repositories or an organization — a fixed number of queries
// whatever the number of repositories — and hands it to the pure policies in permissions/.
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  collaborations, orgMembers, teamMembers, teamRepos, teams, teamUnits, units,
  type AccessMode, type RepoRow, type Unit, type UserRow,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { canSeeOwner, type OrgViewer } from '../../permissions/org.js';
import { repoPermission, type RepoPermission, type TeamGrant } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';

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
      const isOrg = owner.type === 'Organization';
      const viewer = isOrg ? viewers.get(owner.id)! : selfViewer(owner, actor);
      out.set(
        repo.id,
        repoPermission({
          signedIn: !!actor,
          siteAdmin: !!actor?.isAdmin,
          restricted: !!actor?.isRestricted,
          repoPrivate: repo.isPrivate,
          enabledUnits: enabledUnits(repo),
          owner: isOrg ? viewer.isOwner : !!actor && owner.id === actor.id,
          ownerVisible: canSeeOwner(owner.visibility, viewer),
          teams: grants.get(repo.id) ?? [],
          collaboration: collabs.get(repo.id),
        }),
      );
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

/** For a user-owned repository the "organization" viewer is the owner themselves. */
function selfViewer(owner: UserRow, viewer: UserRow | null): OrgViewer {
  const self = !!viewer && viewer.id === owner.id;
  return { user: viewer, isMember: self, isOwner: self };
}
