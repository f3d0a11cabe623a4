import { toChangedFile } from '../../../convert/commit.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import { presentCommits } from '../../../present/commits.js';
import type { Handler } from '../../types.js';

export const repoCompareDiff: Handler<'repoCompareDiff'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const c = await req.services.gitData.compare(loaded, req.path.basehead);
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  return {
    status: 200,
    body: {
      total_commits: c.total,
      commits: await presentCommits(req, loaded, c.rows, { files: true, verification: true }),
      files: c.files.map((f) => toChangedFile(f, c.head, urls)),
    },
  };
};
