import { toRepository } from '../../../convert/repo.js';
import { Forbidden } from '../../../services/errors.js';
import { actorOf, loadOrg } from '../../load.js';
import type { Handler, Request } from '../../types.js';
import { createRepoInput } from '../repository/createCurrentUserRepo.js';

export async function createInOrg(req: Request<'createOrgRepo'> | Request<'createOrgRepoDeprecated'>) {
  const actor = actorOf(req);
  const { org } = await loadOrg(req, req.path.org);
  if (!(await req.services.orgs.canCreateRepo(org, actor))) {
    throw new Forbidden('Given user is not allowed to create repository in organization.');
  }
  const repo = await req.services.repos.create(org, actor, createRepoInput(req.body));
  const perm = await req.services.access.repoPermission(repo, org, actor);
  return { status: 201 as const, body: toRepository(repo, org, perm, actor, req.config) };
}

export const createOrgRepo: Handler<'createOrgRepo'> = createInOrg;
