import { toTeam } from '../../../convert/team.js';
import { actorOf } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userListTeams: Handler<'userListTeams'> = async (req) => {
  const actor = actorOf(req);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.orgLookups.teamsOf(actor, page);
  const units = await req.services.teams.unitsOf(rows.map((r) => r.team.id));
  return {
    status: 200,
    body: rows.map((r) => toTeam(r.team, units.get(r.team.id)!, r.org, actor, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
