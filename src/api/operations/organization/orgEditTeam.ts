import { toTeam } from '../../../convert/team.js';
import { loadTeam } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgEditTeam: Handler<'orgEditTeam'> = async (req) => {
  const { team, org, viewer } = await loadTeam(req, req.path.id);
  const b = req.body;
  const edited = await req.services.teams.edit(team, viewer, {
    name: b.name,
    description: b.description,
    permission: b.permission,
    units: b.units,
    unitsMap: b.units_map as Record<string, string> | null | undefined,
    includesAllRepositories: b.includes_all_repositories,
    canCreateOrgRepo: b.can_create_org_repo,
    visibility: b.visibility,
  });
  return { status: 200, body: toTeam(edited.team, edited.units, org, req.auth.actor, req.config) };
};
