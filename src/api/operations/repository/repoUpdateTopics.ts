import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoUpdateTopics: Handler<'repoUpdateTopics'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.topics.replace(loaded, req.body.topics);
  return { status: 204 };
};
