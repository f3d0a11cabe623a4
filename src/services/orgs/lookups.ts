// Questions about organizations asked from outside them: which organizations a caller may find, whether
// a user is a member, what a user may do in one, which teams a user is in, and which teams reach a
// repository (with giving a repository to a team by name, Gitea's repository-side team operations).
import { and, asc, count, eq, or, sql } from 'drizzle-orm';
import {
  orgMembers, teamMembers, teamRepos, teams, users, type AccessMode, type RepoRow, type TeamRow, type UserRow,
} from '../../db/schema/index.js';
import { rank } from '../../db/schema/access.js';
import { withTx } from '../../db/tx.js';
import { isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, NotAllowed, NotFound } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

type Page = { limit: number; offset: number };

export interface OrgPermissions {
  canCreateRepository: boolean;
  canRead: boolean;
  canWrite: boolean;
  isAdmin: boolean;
  isOwner: boolean;
}

export class OrgLookupService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Gitea's GET /orgs: public organizations to everyone, limited ones too to signed-in callers who are not
   * restricted, all to site administrators; a private one is not listed even to its members.
   */
  async listAll(viewer: UserRow | null, page: Page): Promise<{ rows: UserRow[]; total: number }> {
    const { db } = this.deps;
    const visible = viewer?.isAdmin
      ? undefined
      : viewer && !viewer.isRestricted
        ? or(eq(users.visibility, 'public'), eq(users.visibility, 'limited'))
        : eq(users.visibility, 'public');
    const where = and(eq(users.type, 'Organization'), visible);
    const [rows, [total]] = await Promise.all([
      db.select().from(users).where(where).orderBy(asc(users.lowerName)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(users).where(where),
    ]);
    return { rows, total: Number(total?.n ?? 0) };
  }

  async isMember(orgId: number, userId: number): Promise<boolean> {
    const [row] = await this.deps.db.select({ one: sql`1` }).from(orgMembers)
      .where(and(eq(orgMembers.orgId, orgId), eq(orgMembers.userId, userId)));
    return !!row;
  }

  /**
   * What `user` may do in `org` (Gitea's GetOrgUserMaxAuthorizeLevel): the highest access mode of the
   * user's teams there (a team below admin has the least mode its units grant), and whether the user may
   * create repositories (an owner, or in a team that may).
   */
  async permissionsOf(org: UserRow, user: UserRow): Promise<OrgPermissions> {
    const [row] = await this.deps.db
      .select({
        modes: sql<AccessMode[] | null>`array_agg(${teams.accessMode})`,
        canCreate: sql<boolean | null>`bool_or(${teams.canCreateOrgRepo} or ${teams.accessMode} = 'owner')`,
      })
      .from(teamMembers).innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .where(and(eq(teamMembers.orgId, org.id), eq(teamMembers.userId, user.id)));
    const best = Math.max(0, ...(row?.modes ?? []).map(rank));
    return {
      canCreateRepository: !!row?.canCreate,
      canRead: best > rank('none'),
      canWrite: best > rank('read'),
      isAdmin: best > rank('write'),
      isOwner: best > rank('admin'),
    };
  }

  /** The teams `user` is in, across organizations, with their organizations: by organization, then name. */
  async teamsOf(user: UserRow, page: Page): Promise<{ rows: Array<{ team: TeamRow; org: UserRow }>; total: number }> {
    const { db } = this.deps;
    const where = eq(teamMembers.userId, user.id);
    const [rows, [total]] = await Promise.all([
      db.select({ team: teams, org: users }).from(teamMembers)
        .innerJoin(teams, eq(teams.id, teamMembers.teamId)).innerJoin(users, eq(users.id, teams.orgId))
        .where(where).orderBy(asc(users.lowerName), asc(teams.lowerName)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(teamMembers).where(where),
    ]);
    return { rows, total: Number(total?.n ?? 0) };
  }

  /** Whether the team reaches the repository: it has every repository of its organization, or this one. */
  async teamReaches(team: TeamRow, repo: RepoRow): Promise<boolean> {
    if (repo.ownerId !== team.orgId) return false;
    if (team.includesAllRepositories) return true;
    const [row] = await this.deps.db.select({ one: sql`1` }).from(teamRepos)
      .where(and(eq(teamRepos.teamId, team.id), eq(teamRepos.repoId, repo.id)));
    return !!row;
  }

  /** The repository owner's team named `name` (case-insensitive); 405 for a repository a user owns, 404 for no such team. */
  async teamOfRepoOwner(loaded: LoadedRepo, name: string): Promise<TeamRow> {
    if (loaded.owner.type !== 'Organization') throw new NotAllowed('repo is not owned by an organization');
    const [team] = await this.deps.db.select().from(teams)
      .where(and(eq(teams.orgId, loaded.owner.id), eq(teams.lowerName, name.toLowerCase())));
    if (!team) throw new NotFound();
    return team;
  }

  /**
   * Gives the team the repository (`add`) or takes it away (Gitea's AddTeam/DeleteTeam of a repository):
   * repository administrators; 422 when the team has it already, or does not have it.
   */
  async changeRepoTeam(loaded: LoadedRepo, name: string, add: boolean): Promise<void> {
    if (loaded.owner.type !== 'Organization') throw new NotAllowed('repo is not owned by an organization');
    if (!isRepoAdmin(loaded.perm)) throw new Forbidden('user is nor repo admin nor owner');
    const team = await this.teamOfRepoOwner(loaded, name);
    await withTx(this.deps.db, async (tx) => {
      const [has] = await tx.select({ one: sql`1` }).from(teamRepos)
        .where(and(eq(teamRepos.teamId, team.id), eq(teamRepos.repoId, loaded.repo.id))).for('update');
      const reaches = team.includesAllRepositories || !!has;
      if (add) {
        if (reaches) throw new Invalid(`team '${team.name}' is already added to repo`);
        await tx.insert(teamRepos).values({ teamId: team.id, repoId: loaded.repo.id, orgId: team.orgId }).onConflictDoNothing();
      } else {
        if (!has || team.includesAllRepositories) throw new Invalid(`team '${team.name}' was not added to repo`);
        await tx.delete(teamRepos).where(and(eq(teamRepos.teamId, team.id), eq(teamRepos.repoId, loaded.repo.id)));
      }
    });
  }
}
