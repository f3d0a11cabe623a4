import { toTeam } from '../../../convert/team.js';
import { loadTeam } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgGetTeam: Handler<'orgGetTeam'> = async (req) => {
  const { team, org } = await loadTeam(req, req.path.id);
  const units = (await req.services.teams.unitsOf([team.id])).get(team.id)!;
  return { status: 200, body: toTeam(team, units, org, req.auth.actor, req.config) };
};
