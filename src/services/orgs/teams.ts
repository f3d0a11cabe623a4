// Teams of an organization: creation with Gitea's permission/units rules, visibility-aware listing,
// membership, and the repositories a team reaches.
import { and, asc, count, eq, ilike, inArray, or, sql, exists, type SQL } from 'drizzle-orm';
import {
  orgMembers, repositories, teamMembers, teamRepos, teams, teamUnits, users,
  type AccessMode, type RepoRow, type TeamRow, type Unit, type UserRow,
} from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { canSeeTeam, type OrgViewer } from '../../permissions/org.js';
import { leastGrantedMode, teamUnitModes } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, isUniqueViolation } from '../errors.js';
import { containsPattern } from '../like.js';
import { addOrgMember } from './orgs.js';
import { visibleTo } from '../repos/repoQuery.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { deleteTeam, editTeam, type EditTeamInput } from './teamEdit.js';
import { changeTeamRepo } from './teamRepos.js';
import { teamUnitsFrom, type CreateTeamInput, type TeamLookups, type TeamWithUnits } from './teamUnits.js';
import { refuseBlocked } from '../users/blocks.js';

export { teamUnitsFrom, type CreateTeamInput, type TeamWithUnits } from './teamUnits.js';

export class TeamService implements TeamLookups {
  constructor(private readonly deps: ServiceDeps) {}

  async create(org: UserRow, input: CreateTeamInput): Promise<TeamWithUnits> {
    if (input.name.toLowerCase() === 'new') throw new Invalid('team name is reserved [name: new]');
    const { mode, units: unitModes } = teamUnitsFrom(input);
    try {
      return await withTx(this.deps.db, async (tx) => {
        const [dup] = await tx
          .select({ id: teams.id })
          .from(teams)
          .where(and(eq(teams.orgId, org.id), eq(teams.lowerName, input.name.toLowerCase())));
        if (dup) throw new Invalid(`team already exists [name: ${input.name}]`);
        const [team] = await tx
          .insert(teams)
          .values({
            orgId: org.id,
            name: input.name,
            lowerName: input.name.toLowerCase(),
            description: input.description ?? '',
            accessMode: mode,
            includesAllRepositories: input.includesAllRepositories ?? false,
            canCreateOrgRepo: input.canCreateOrgRepo ?? false,
            visibility: input.visibility ?? 'private',
          })
          .returning();
        const rows = Object.entries(unitModes).map(([unit, accessMode]) => ({ teamId: team!.id, unit: unit as Unit, accessMode }));
        if (rows.length) await tx.insert(teamUnits).values(rows);
        return { team: team!, units: unitModes };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new Invalid(`team already exists [name: ${input.name}]`);
      throw err;
    }
  }

  async byId(id: number): Promise<TeamRow | undefined> {
    const [row] = await this.deps.db.select().from(teams).where(eq(teams.id, id));
    return row;
  }

  /** Unit modes of several teams at once (one query). */
  async unitsOf(teamIds: number[]): Promise<Map<number, Partial<Record<Unit, AccessMode>>>> {
    const out = new Map<number, Partial<Record<Unit, AccessMode>>>(teamIds.map((id) => [id, {}]));
    if (teamIds.length === 0) return out;
    const rows = await this.deps.db.select().from(teamUnits).where(inArray(teamUnits.teamId, teamIds));
    for (const r of rows) out.get(r.teamId)![r.unit] = r.accessMode;
    return out;
  }

  async isMember(teamId: number, userId: number): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ one: sql`1` })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
    return !!row;
  }

  /** Whether `viewer` may see the team (by its visibility and the viewer's place in the org). */
  async visibleTo(team: TeamRow, viewer: OrgViewer): Promise<boolean> {
    const inTeam = viewer.user ? await this.isMember(team.id, viewer.user.id) : false;
    return canSeeTeam(team, { ...viewer, inTeam });
  }

  /** The condition "the viewer may see this team" (see canSeeTeam), for lists of one organization's teams. */
  private visibleCond(viewer: OrgViewer): SQL | undefined {
    if (viewer.isOwner || viewer.user?.isAdmin) return undefined;
    const uid = viewer.user?.id ?? 0;
    const mine = exists(this.deps.db.select({ one: sql`1` }).from(teamMembers).where(and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, uid))));
    return or(
      mine,
      viewer.isMember ? inArray(teams.visibility, ['limited', 'public']) : undefined,
      viewer.user ? eq(teams.visibility, 'public') : undefined,
    );
  }

  /** The org's teams the viewer may see, by name. */
  /** With `search`, only teams whose name (or, with `includeDesc`, description) contains `q`. */
  async list(org: UserRow, viewer: OrgViewer, page: { limit: number; offset: number }, search?: { q?: string; includeDesc?: boolean }): Promise<{ rows: TeamRow[]; total: number }> {
    const { db } = this.deps;
    const q = search?.q?.trim().toLowerCase();
    const p = q ? containsPattern(q) : undefined;
    const match = p === undefined ? undefined : search?.includeDesc ? or(ilike(teams.lowerName, p), ilike(teams.description, p)) : ilike(teams.lowerName, p);
    const where = and(eq(teams.orgId, org.id), this.visibleCond(viewer) ?? sql`true`, match);
    const [rows, [total]] = await Promise.all([
      db.select().from(teams).where(where).orderBy(asc(teams.lowerName)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(teams).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async addMember(team: TeamRow, actorViewer: OrgViewer, user: UserRow): Promise<void> {
    if (!actorViewer.isOwner && !actorViewer.user?.isAdmin) throw new Forbidden('Must be an organization owner');
    if (user.type === 'Organization') throw new Invalid('an organization cannot be a team member');
    await withTx(this.deps.db, async (tx) => {
      // Someone the organization blocked does not join it (403); a block at the same time waits for this.
      await refuseBlocked(tx, user.id, [team.orgId], { lock: true });
      await addOrgMember(tx, team.orgId, user.id);
      await tx.insert(teamMembers).values({ teamId: team.id, userId: user.id, orgId: team.orgId }).onConflictDoNothing();
    });
  }

  /**
   * Takes `user` out of the team (owners and site admins); one then in no team of the organization leaves
   * it too, as in Gitea. Not a member: nothing changes. The owners team keeps its last member (422).
   */
  async removeMember(team: TeamRow, actorViewer: OrgViewer, user: UserRow): Promise<void> {
    if (!actorViewer.isOwner && !actorViewer.user?.isAdmin) throw new Forbidden('Must be an organization owner');
    await withTx(this.deps.db, async (tx) => {
      // Locks the team's memberships, so that two removals cannot each leave the other owner alone.
      const members = await tx.select({ userId: teamMembers.userId }).from(teamMembers)
        .where(eq(teamMembers.teamId, team.id)).for('update');
      if (!members.some((m) => m.userId === user.id)) return;
      if (team.accessMode === 'owner' && members.length === 1) throw new Invalid('user is the last member of owner team');
      await tx.delete(teamMembers).where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, user.id)));
      const [other] = await tx.select({ teamId: teamMembers.teamId }).from(teamMembers)
        .where(and(eq(teamMembers.orgId, team.orgId), eq(teamMembers.userId, user.id))).limit(1);
      if (!other) await tx.delete(orgMembers).where(and(eq(orgMembers.orgId, team.orgId), eq(orgMembers.userId, user.id)));
    });
  }

  /**
   * Repositories the team reaches (all of the org's with includes_all_repositories, else its own list)
   * that `viewer` may see: filtered in SQL, so that pages and the total count only what is shown.
   */
  async listRepos(team: TeamRow, viewer: UserRow | null, page: { limit: number; offset: number }): Promise<{ rows: RepoRow[]; total: number }> {
    const { db } = this.deps;
    const reached = team.includesAllRepositories
      ? eq(repositories.ownerId, team.orgId)
      : exists(db.select({ one: sql`1` }).from(teamRepos).where(and(eq(teamRepos.teamId, team.id), eq(teamRepos.repoId, repositories.id))));
    const where = and(reached, visibleTo(viewer));
    const [rows, [total]] = await Promise.all([
      db.select({ repo: repositories }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId))
        .where(where).orderBy(asc(repositories.lowerName)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(where),
    ]);
    return { rows: rows.map((r) => r.repo), total: total?.n ?? 0 };
  }

  /** The teams of the repository's organization that reach it (given it, or every repository) and that the viewer may see, by name. */
  async listForRepo(repo: RepoRow, viewer: OrgViewer, page: { limit: number; offset: number }): Promise<{ rows: TeamRow[]; total: number }> {
    const { db } = this.deps;
    const reaches = or(
      eq(teams.includesAllRepositories, true),
      exists(db.select({ one: sql`1` }).from(teamRepos).where(and(eq(teamRepos.teamId, teams.id), eq(teamRepos.repoId, repo.id)))),
    );
    const where = and(eq(teams.orgId, repo.ownerId), reaches, this.visibleCond(viewer));
    const [rows, [total]] = await Promise.all([
      db.select().from(teams).where(where).orderBy(asc(teams.lowerName)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(teams).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  edit(team: TeamRow, viewer: OrgViewer, input: EditTeamInput): Promise<TeamWithUnits> {
    return editTeam(this.deps, this, team, viewer, input);
  }

  delete(team: TeamRow, viewer: OrgViewer): Promise<void> {
    return deleteTeam(this.deps, team, viewer);
  }

  /** Gives the team the repository, or takes it away (see teamRepos.ts). */
  changeRepo(team: TeamRow, viewer: OrgViewer, loaded: LoadedRepo, add: boolean): Promise<void> {
    return changeTeamRepo(this.deps, this, team, viewer, loaded, add);
  }
}

