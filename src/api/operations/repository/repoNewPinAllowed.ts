import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoNewPinAllowed: Handler<'repoNewPinAllowed'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: await req.services.pins.newPinAllowed(loaded) };
};
