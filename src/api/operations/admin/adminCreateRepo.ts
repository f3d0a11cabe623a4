import { toRepository } from '../../../convert/repo.js';
import { actorOf, loadAccount } from '../../load.js';
import type { Handler } from '../../types.js';
import { createRepoInput } from '../repository/createCurrentUserRepo.js';

export const adminCreateRepo: Handler<'adminCreateRepo'> = async (req) => {
  const admin = actorOf(req);
  const owner = await loadAccount(req, req.path.username);
  const repo = await req.services.repos.create(owner, admin, createRepoInput(req.body));
  const perm = await req.services.access.repoPermission(repo, owner, admin);
  return { status: 201, body: toRepository(repo, owner, perm, admin, req.config) };
};
