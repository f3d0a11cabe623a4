import { toTeam } from '../../../convert/team.js';
import { NotAllowed } from '../../../services/errors.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoListTeams: Handler<'repoListTeams'> = async (req) => {
  const { repo, owner } = await loadRepo(req, req.path.owner, req.path.repo);
  if (owner.type !== 'Organization') throw new NotAllowed('repo is not owned by an organization');
  const page = pageOf(req.query, req.config);
  const viewer = await req.services.access.orgViewer(owner.id, req.auth.actor);
  const { rows, total } = await req.services.teams.listForRepo(repo, viewer, page);
  const unitsOf = await req.services.teams.unitsOf(rows.map((t) => t.id));
  return {
    status: 200,
    body: rows.map((t) => toTeam(t, unitsOf.get(t.id)!, null, req.auth.actor, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
