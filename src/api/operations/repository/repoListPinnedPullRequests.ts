import { loadRepo } from '../../load.js';
import { presentPulls } from '../../../present/pulls.js';
import type { Handler } from '../../types.js';

export const repoListPinnedPullRequests: Handler<'repoListPinnedPullRequests'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: await presentPulls(req, loaded, await req.services.pins.pinnedPulls(loaded)) };
};
