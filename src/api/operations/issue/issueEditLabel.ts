import { toLabel } from '../../../convert/label.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';
import { editLabelInput } from '../organization/orgEditLabel.js';

export const issueEditLabel: Handler<'issueEditLabel'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const label = await req.services.labels.edit(loaded, req.path.id, editLabelInput(req.body));
  return { status: 200, body: toLabel(label, repoUrls(req.config, loaded.owner.name, loaded.repo.name).api) };
};
