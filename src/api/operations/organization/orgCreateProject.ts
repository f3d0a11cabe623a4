import { actorOf, loadOrg } from '../../load.js';
import { presentProject } from '../../../present/projects.js';
import type { Handler } from '../../types.js';

export const orgCreateProject: Handler<'orgCreateProject'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const b = req.body;
  const project = await req.services.projects.create(org, actorOf(req), {
    title: b.title,
    description: b.description ?? undefined,
    templateType: b.template_type ?? undefined,
    cardType: b.card_type ?? undefined,
  });
  return { status: 201, body: await presentProject(req, project) };
};
