import { toIssueTemplate } from '../../../convert/contents.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetIssueTemplates: Handler<'repoGetIssueTemplates'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const templates = await req.services.contents.issueTemplates(loaded);
  return { status: 200, body: templates.map(toIssueTemplate) };
};
