import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteTopic: Handler<'repoDeleteTopic'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.topics.remove(loaded, req.path.topic);
  return { status: 204 };
};
