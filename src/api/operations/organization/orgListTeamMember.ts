import { toUser } from '../../../convert/user.js';
import { NotFound } from '../../../services/errors.js';
import { loadTeam, loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgListTeamMember: Handler<'orgListTeamMember'> = async (req) => {
  const { team } = await loadTeam(req, req.path.id);
  const user = await loadUser(req, req.path.username);
  if (!(await req.services.teams.isMember(team.id, user.id))) throw new NotFound();
  return { status: 200, body: toUser(user, req.auth.actor, req.config) };
};
