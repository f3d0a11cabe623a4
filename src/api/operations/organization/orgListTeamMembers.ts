import { toUser } from '../../../convert/user.js';
import { loadTeam } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const orgListTeamMembers: Handler<'orgListTeamMembers'> = async (req) => {
  const { team, viewer } = await loadTeam(req, req.path.id);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.members.listTeamMembers(team, viewer, page);
  return {
    status: 200,
    body: rows.map((u) => toUser(u, req.auth.actor, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
