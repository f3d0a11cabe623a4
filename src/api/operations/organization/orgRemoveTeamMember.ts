import { loadAccount, loadTeam } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgRemoveTeamMember: Handler<'orgRemoveTeamMember'> = async (req) => {
  const { team, viewer } = await loadTeam(req, req.path.id);
  const user = await loadAccount(req, req.path.username);
  await req.services.teams.removeMember(team, viewer, user);
  return { status: 204 };
};
