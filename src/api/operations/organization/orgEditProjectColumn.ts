import { loadOrg } from '../../load.js';
import { presentColumn } from '../../../present/projects.js';
import type { Handler } from '../../types.js';

export const orgEditProjectColumn: Handler<'orgEditProjectColumn'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const loaded = await req.services.projects.load(org, req.auth.actor, req.path.id, 'write');
  const b = req.body;
  const column = await req.services.projectColumns.edit(loaded, req.path.column_id, {
    title: b.title ?? undefined,
    color: b.color ?? undefined,
    sorting: b.sorting ?? undefined,
    default: b.default ?? undefined,
  });
  return { status: 200, body: await presentColumn(req, column) };
};
