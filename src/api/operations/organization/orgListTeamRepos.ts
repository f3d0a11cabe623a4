import { toRepository } from '../../../convert/repo.js';
import { canSeeRepo } from '../../../permissions/repo.js';
import { loadTeam } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const orgListTeamRepos: Handler<'orgListTeamRepos'> = async (req) => {
  const { team, org } = await loadTeam(req, req.path.id);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.teams.listRepos(team, req.auth.actor, page);
  const perms = await req.services.access.repoPermissions(rows.map((repo) => ({ repo, owner: org })), req.auth.actor);
  // The query keeps to what the caller may see (a team can be visible to people who cannot see all it
  // reaches); the policy has the last word.
  const visible = rows.filter((r) => canSeeRepo(perms.get(r.id)!));
  return {
    status: 200,
    body: visible.map((r) => toRepository(r, org, perms.get(r.id)!, req.auth.actor, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
