import { toLanguageStatistics } from '../../../convert/languages.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetLanguages: Handler<'repoGetLanguages'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: toLanguageStatistics(await req.services.repoStats.languages(loaded)) };
};
