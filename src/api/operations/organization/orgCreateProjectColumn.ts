import { actorOf, loadOrg } from '../../load.js';
import { presentColumn } from '../../../present/projects.js';
import type { Handler } from '../../types.js';

export const orgCreateProjectColumn: Handler<'orgCreateProjectColumn'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const loaded = await req.services.projects.load(org, req.auth.actor, req.path.id, 'write');
  const column = await req.services.projectColumns.create(loaded, actorOf(req), { title: req.body.title, color: req.body.color ?? undefined });
  return { status: 201, body: await presentColumn(req, column) };
};
