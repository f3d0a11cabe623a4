import { toOrganization } from '../../../convert/org.js';
import { actorOf, loadAccount } from '../../load.js';
import type { Handler } from '../../types.js';
import { createOrgInput } from '../organization/orgCreate.js';

export const adminCreateOrg: Handler<'adminCreateOrg'> = async (req) => {
  const owner = await loadAccount(req, req.path.username);
  const org = await req.services.orgs.create(owner, createOrgInput(req.body), { byAdmin: true });
  return { status: 201, body: toOrganization(org, actorOf(req), req.config) };
};
