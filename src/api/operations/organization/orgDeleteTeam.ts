import { loadTeam } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgDeleteTeam: Handler<'orgDeleteTeam'> = async (req) => {
  const { team, viewer } = await loadTeam(req, req.path.id);
  await req.services.teams.delete(team, viewer);
  return { status: 204 };
};
