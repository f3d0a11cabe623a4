// Giving a team a repository of its organization, or taking it away (Gitea's AddTeamRepository and
// RemoveTeamRepository): the team's members, its organization's owners and site administrators, each
// with admin access to the repository.
import { and, eq } from 'drizzle-orm';
import { teamRepos, type TeamRow } from '../../db/schema/index.js';
import type { OrgViewer } from '../../permissions/org.js';
import { isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, NotFound } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import type { TeamLookups } from './teamUnits.js';

export async function changeTeamRepo(
  deps: ServiceDeps, service: TeamLookups, team: TeamRow, viewer: OrgViewer, loaded: LoadedRepo, add: boolean,
): Promise<void> {
  const actor = viewer.user!;
  if (loaded.repo.ownerId !== team.orgId) throw new NotFound();
  if (!actor.isAdmin && !viewer.isOwner && !(await service.isMember(team.id, actor.id))) throw new Forbidden('Must be a team member');
  if (!isRepoAdmin(loaded.perm)) throw new Forbidden('Must have admin-level access to the repository');
  // A team with every repository has this one already, and keeps it (as in Gitea).
  if (team.includesAllRepositories) return;
  if (add) {
    await deps.db.insert(teamRepos).values({ teamId: team.id, repoId: loaded.repo.id, orgId: team.orgId }).onConflictDoNothing();
  } else {
    await deps.db.delete(teamRepos).where(and(eq(teamRepos.teamId, team.id), eq(teamRepos.repoId, loaded.repo.id)));
  }
}
