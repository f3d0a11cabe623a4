import { loadTeam, loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgAddTeamMember: Handler<'orgAddTeamMember'> = async (req) => {
  const { team, viewer } = await loadTeam(req, req.path.id);
  const user = await loadUser(req, req.path.username);
  await req.services.teams.addMember(team, viewer, user);
  return { status: 204 };
};
