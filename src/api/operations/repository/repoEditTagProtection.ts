import { toTagProtection } from '../../../convert/tagProtection.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoEditTagProtection: Handler<'repoEditTagProtection'> = async (req) => {
  actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const view = await req.services.protections.tags.edit(loaded, req.path.id, { namePattern: b.name_pattern, whitelistUsernames: b.whitelist_usernames, whitelistTeams: b.whitelist_teams });
  return { status: 200, body: toTagProtection(view) };
};
