import type { components } from '../../../../generated/openapi.js';
import { orgApiUrl, toLabel } from '../../../convert/label.js';
import type { EditLabelInput } from '../../../services/issues/labels.js';
import { loadOrg } from '../../load.js';
import type { Handler } from '../../types.js';

/** EditLabelOption (shared with issueEditLabel). */
export const editLabelInput = (b: components['schemas']['EditLabelOption']): EditLabelInput => ({
  name: b.name ?? undefined,
  color: b.color ?? undefined,
  description: b.description ?? undefined,
  exclusive: b.exclusive ?? undefined,
  isArchived: b.is_archived ?? undefined,
});

export const orgEditLabel: Handler<'orgEditLabel'> = async (req) => {
  const { org, viewer } = await loadOrg(req, req.path.org);
  const label = await req.services.labels.editInOrg(org, viewer, req.path.id, editLabelInput(req.body));
  const api = orgApiUrl(req.config, org.name);
  return { status: 200, body: toLabel(label, api, api) };
};
