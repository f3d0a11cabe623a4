import { toTeam } from '../../../convert/team.js';
import { Forbidden } from '../../../services/errors.js';
import { actorOf, loadOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgCreateTeam: Handler<'orgCreateTeam'> = async (req) => {
  const actor = actorOf(req);
  const { org, viewer } = await loadOrg(req, req.path.org);
  if (!actor.isAdmin && !viewer.isMember) throw new Forbidden('Must be an organization member');
  if (!actor.isAdmin && !viewer.isOwner) throw new Forbidden('Must be an organization owner');
  const b = req.body;
  const { team, units } = await req.services.teams.create(org, {
    name: b.name,
    description: b.description ?? undefined,
    permission: b.permission ?? undefined,
    units: b.units,
    unitsMap: b.units_map as Record<string, string> | null | undefined,
    includesAllRepositories: b.includes_all_repositories ?? undefined,
    canCreateOrgRepo: b.can_create_org_repo ?? undefined,
    visibility: b.visibility ?? undefined,
  });
  return { status: 201, body: toTeam(team, units, org, actor, req.config) };
};
