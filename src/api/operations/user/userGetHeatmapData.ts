import { loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const userGetHeatmapData: Handler<'userGetHeatmapData'> = async (req) => {
  const user = await loadUser(req, req.path.username);
  return { status: 200, body: await req.services.feeds.heatmap(user, req.auth.actor) };
};
