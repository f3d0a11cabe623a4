import { toTeam } from '../../../convert/team.js';
import { loadOrg } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const teamSearch: Handler<'teamSearch'> = async (req) => {
  const { org, viewer } = await loadOrg(req, req.path.org);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.teams.list(org, viewer, page, { q: req.query.q, includeDesc: req.query.include_desc });
  const unitsOf = await req.services.teams.unitsOf(rows.map((t) => t.id));
  return {
    status: 200,
    body: { ok: true, data: rows.map((t) => toTeam(t, unitsOf.get(t.id)!, null, req.auth.actor, req.config)) },
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
