// Editing and deleting a team (owners of its organization and site administrators). Access is computed
// from the team rows on every request, so a change applies to every member at once.
import { and, eq } from 'drizzle-orm';
import {
  rank, repositories, teamRepos, teams, teamUnits, type AccessMode, type TeamRow, type Unit, type Visibility,
} from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { OrgViewer } from '../../permissions/org.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, isUniqueViolation } from '../errors.js';
import { teamUnitsFrom, type TeamLookups, type TeamWithUnits } from './teamUnits.js';

export interface EditTeamInput {
  name?: string;
  description?: string;
  permission?: string;
  units?: string[] | null;
  unitsMap?: Record<string, string> | null;
  includesAllRepositories?: boolean;
  canCreateOrgRepo?: boolean;
  visibility?: Visibility;
}

function checkOwner(viewer: OrgViewer): void {
  if (!viewer.user?.isAdmin && !viewer.isOwner) throw new Forbidden('Must be an organization owner');
}

/** The Owners team: the one with owner access (no other team can get it). */
const isOwnersTeam = (team: TeamRow) => team.accessMode === 'owner';

/**
 * The team's new mode and units, or undefined when they stay. A permission below admin without units
 * applies to the units the team grants now; units without a permission keep an admin team's units.
 */
function newUnits(team: TeamRow, current: Partial<Record<Unit, AccessMode>>, input: EditTeamInput) {
  const unitsGiven = !!input.units?.length || !!(input.unitsMap && Object.keys(input.unitsMap).length);
  if (input.permission) {
    if (unitsGiven || rank(input.permission as AccessMode) >= rank('admin')) {
      return teamUnitsFrom({ name: team.name, permission: input.permission, units: input.units, unitsMap: input.unitsMap });
    }
    const granted = (Object.entries(current) as Array<[Unit, AccessMode]>).filter(([, m]) => m !== 'none').map(([u]) => u);
    return teamUnitsFrom({ name: team.name, permission: input.permission, units: granted });
  }
  if (!unitsGiven || rank(team.accessMode) >= rank('admin')) return undefined;
  return teamUnitsFrom({ name: team.name, permission: team.accessMode, units: input.units, unitsMap: input.unitsMap });
}

export async function editTeam(deps: ServiceDeps, service: TeamLookups, team: TeamRow, viewer: OrgViewer, input: EditTeamInput): Promise<TeamWithUnits> {
  checkOwner(viewer);
  const owners = isOwnersTeam(team);
  const name = input.name || team.name;
  if (name !== team.name) {
    if (owners) throw new Invalid('the Owners team cannot be renamed');
    if (name.toLowerCase() === 'new') throw new Invalid('team name is reserved [name: new]');
  }
  const current = (await service.unitsOf([team.id])).get(team.id)!;
  const units = owners ? undefined : newUnits(team, current, input);
  const includesAll = owners ? true : (input.includesAllRepositories ?? team.includesAllRepositories);
  try {
    return await withTx(deps.db, async (tx) => {
      if (name.toLowerCase() !== team.lowerName) {
        const [dup] = await tx.select({ id: teams.id }).from(teams).where(and(eq(teams.orgId, team.orgId), eq(teams.lowerName, name.toLowerCase())));
        if (dup) throw new Invalid(`team already exists [name: ${name}]`);
      }
      if (team.includesAllRepositories && !includesAll) {
        // As in Gitea, where such a team was given each repository: it keeps today's, not tomorrow's.
        const repos = await tx.select({ id: repositories.id }).from(repositories).where(eq(repositories.ownerId, team.orgId));
        if (repos.length) {
          await tx.insert(teamRepos).values(repos.map((r) => ({ teamId: team.id, repoId: r.id, orgId: team.orgId }))).onConflictDoNothing();
        }
      }
      const [row] = await tx
        .update(teams)
        .set({
          name,
          lowerName: name.toLowerCase(),
          description: input.description ?? team.description,
          accessMode: units ? units.mode : team.accessMode,
          includesAllRepositories: includesAll,
          canCreateOrgRepo: owners ? true : (input.canCreateOrgRepo ?? team.canCreateOrgRepo),
          visibility: input.visibility ?? team.visibility,
          updatedAt: new Date(),
        })
        .where(eq(teams.id, team.id))
        .returning();
      if (units) {
        await tx.delete(teamUnits).where(eq(teamUnits.teamId, team.id));
        const rows = Object.entries(units.units).map(([unit, accessMode]) => ({ teamId: team.id, unit: unit as Unit, accessMode }));
        if (rows.length) await tx.insert(teamUnits).values(rows);
      }
      return { team: row!, units: units ? units.units : current };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new Invalid(`team already exists [name: ${name}]`);
    throw err;
  }
}

/** Units, members and repositories of the team go with it; its members stay in the organization. */
export async function deleteTeam(deps: ServiceDeps, team: TeamRow, viewer: OrgViewer): Promise<void> {
  checkOwner(viewer);
  if (isOwnersTeam(team)) throw new Invalid('the Owners team cannot be deleted');
  await deps.db.delete(teams).where(eq(teams.id, team.id));
}
