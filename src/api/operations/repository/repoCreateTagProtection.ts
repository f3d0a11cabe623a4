import { toTagProtection } from '../../../convert/tagProtection.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoCreateTagProtection: Handler<'repoCreateTagProtection'> = async (req) => {
  actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const view = await req.services.protections.tags.create(loaded, { namePattern: b.name_pattern, whitelistUsernames: b.whitelist_usernames, whitelistTeams: b.whitelist_teams });
  return { status: 201, body: toTagProtection(view) };
};
