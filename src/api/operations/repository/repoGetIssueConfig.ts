import { toIssueConfig } from '../../../convert/contents.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetIssueConfig: Handler<'repoGetIssueConfig'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { config } = await req.services.contents.issueConfig(loaded);
  return { status: 200, body: toIssueConfig(config) };
};
