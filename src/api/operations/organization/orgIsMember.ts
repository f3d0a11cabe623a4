import { NotFound } from '../../../services/errors.js';
import { actorOf, loadOrg, loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgIsMember: Handler<'orgIsMember'> = async (req) => {
  const { org, viewer } = await loadOrg(req, req.path.org);
  const user = await loadUser(req, req.path.username);
  const actor = actorOf(req);
  if (viewer.isMember || actor.isAdmin) {
    if (!(await req.services.orgLookups.isMember(org.id, user.id))) throw new NotFound();
    return { status: 204 };
  }
  if (actor.id === user.id) throw new NotFound();
  // Gitea sends non-members to the public membership, so that only what is public shows.
  const base = new URL(req.config.rootUrl).pathname.replace(/\/$/, '');
  const location = `${base}/api/v1/orgs/${encodeURIComponent(org.name)}/public_members/${encodeURIComponent(user.name)}`;
  return { status: 302, headers: { Location: location } };
};
