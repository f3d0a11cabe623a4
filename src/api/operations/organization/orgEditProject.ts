import { loadOrg } from '../../load.js';
import { presentProject } from '../../../present/projects.js';
import type { Handler } from '../../types.js';

export const orgEditProject: Handler<'orgEditProject'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const loaded = await req.services.projects.load(org, req.auth.actor, req.path.id, 'write');
  const b = req.body;
  const project = await req.services.projects.edit(loaded, {
    title: b.title ?? undefined,
    description: b.description ?? undefined,
    cardType: b.card_type ?? undefined,
    state: b.state ?? undefined,
  });
  return { status: 200, body: await presentProject(req, project) };
};
