import { toIssueConfigValidation } from '../../../convert/contents.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoValidateIssueConfig: Handler<'repoValidateIssueConfig'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { error } = await req.services.contents.issueConfig(loaded);
  return { status: 200, body: toIssueConfigValidation(error) };
};
