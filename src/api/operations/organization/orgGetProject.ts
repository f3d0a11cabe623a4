import { loadOrg } from '../../load.js';
import { presentProject } from '../../../present/projects.js';
import type { Handler } from '../../types.js';

export const orgGetProject: Handler<'orgGetProject'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const { project } = await req.services.projects.load(org, req.auth.actor, req.path.id, 'read');
  return { status: 200, body: await presentProject(req, project) };
};
