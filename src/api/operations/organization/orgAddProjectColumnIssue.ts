import { actorOf, loadOrg } from '../../load.js';
import { presentColumn } from '../../../present/projects.js';
import type { Handler } from '../../types.js';

export const orgAddProjectColumnIssue: Handler<'orgAddProjectColumnIssue'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const loaded = await req.services.projects.load(org, req.auth.actor, req.path.id, 'write');
  const column = await req.services.projectColumns.addIssue(loaded, req.path.column_id, actorOf(req), req.body.issue_id);
  return { status: 200, body: await presentColumn(req, column) };
};
