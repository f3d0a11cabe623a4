import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoAddTopic: Handler<'repoAddTopic'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.topics.add(loaded, req.path.topic);
  return { status: 204 };
};
