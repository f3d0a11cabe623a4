import type { components } from '../../../../generated/openapi.js';
import { toRepository } from '../../../convert/repo.js';
import type { CreateRepoInput } from '../../../services/repos/repoCreate.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export function createRepoInput(b: components['schemas']['CreateRepoOption']): CreateRepoInput {
  return {
    name: b.name,
    description: b.description ?? undefined,
    private: b.private ?? undefined,
    template: b.template ?? undefined,
    autoInit: b.auto_init ?? undefined,
    defaultBranch: b.default_branch ?? undefined,
    gitignores: b.gitignores ?? undefined,
    license: b.license ?? undefined,
    readme: b.readme ?? undefined,
    issueLabels: b.issue_labels ?? undefined,
    trustModel: b.trust_model ?? undefined,
    objectFormat: b.object_format_name ?? undefined,
  };
}

export const createCurrentUserRepo: Handler<'createCurrentUserRepo'> = async (req) => {
  const actor = actorOf(req);
  const repo = await req.services.repos.create(actor, actor, createRepoInput(req.body));
  const perm = await req.services.access.repoPermission(repo, actor, actor);
  return { status: 201, body: toRepository(repo, actor, perm, actor, req.config) };
};
