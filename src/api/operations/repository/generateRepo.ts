import { toRepository } from '../../../convert/repo.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const generateRepo: Handler<'generateRepo'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.template_owner, req.path.template_repo);
  const b = req.body;
  const { repo, owner, perm } = await req.services.templates.generate(loaded, actor, {
    owner: b.owner, name: b.name, description: b.description, defaultBranch: b.default_branch, private: b.private,
    gitContent: b.git_content, topics: b.topics, gitHooks: b.git_hooks, webhooks: b.webhooks, avatar: b.avatar,
    labels: b.labels, protectedBranch: b.protected_branch,
  });
  return { status: 201, body: toRepository(repo, owner, perm, actor, req.config) };
};
