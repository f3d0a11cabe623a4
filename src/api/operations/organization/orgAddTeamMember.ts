import { loadAccount, loadTeam } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgAddTeamMember: Handler<'orgAddTeamMember'> = async (req) => {
  const { team, viewer } = await loadTeam(req, req.path.id);
  // Any visible account: naming an organization is a 422 from the service, not a 404.
  const user = await loadAccount(req, req.path.username);
  await req.services.teams.addMember(team, viewer, user);
  return { status: 204 };
};
