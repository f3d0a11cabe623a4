// Branches as the API shows them: their commits' author accounts and signature verification read for a
// whole page at once, then converted.
import { toBranch } from '../convert/branch.js';
import { repoUrls } from '../convert/repo.js';
import { canWrite } from '../permissions/repo.js';
import type { BranchView } from '../services/git/branches.js';
import type { Services } from '../services/index.js';
import type { LoadedRepo } from '../services/repos/repos.js';
import type { Config } from '../config.js';

export async function presentBranches(req: { services: Services; config: Config }, loaded: LoadedRepo, rows: BranchView[]) {
  const [names, verifications] = await Promise.all([
    req.services.users.namesByEmail(rows.flatMap((b) => [b.commit.author.email, b.commit.committer.email])),
    req.services.verifier.verify(req.services.branches.dir(loaded), rows.map((b) => b.commit)),
  ]);
  const html = repoUrls(req.config, loaded.owner.name, loaded.repo.name).html;
  const canPush = canWrite(loaded.perm, 'repo.code');
  return rows.map((b) => toBranch(b.name, b.commit, html, canPush, names, verifications.get(b.commit.id)));
}
