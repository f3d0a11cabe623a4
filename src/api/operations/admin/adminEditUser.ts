import { toUser } from '../../../convert/user.js';
import { actorOf, loadAccount } from '../../load.js';
import type { Handler } from '../../types.js';

export const adminEditUser: Handler<'adminEditUser'> = async (req) => {
  const target = await loadAccount(req, req.path.username);
  const b = req.body ?? {};
  const user = await req.services.userAdmin.edit(target, {
    sourceId: b.source_id, loginName: b.login_name, email: b.email, fullName: b.full_name, password: b.password,
    mustChangePassword: b.must_change_password, website: b.website, location: b.location, description: b.description,
    active: b.active, admin: b.admin, maxRepoCreation: b.max_repo_creation, prohibitLogin: b.prohibit_login,
    allowCreateOrganization: b.allow_create_organization, allowGitHook: b.allow_git_hook, restricted: b.restricted, visibility: b.visibility,
  });
  return { status: 200, body: toUser(user, actorOf(req), req.config) };
};
