// Branches as the API shows them: their commits' author accounts and signature verification read for a
// whole page at once, then converted.
import { toBranch } from '../convert/branch.js';
import { repoUrls } from '../convert/repo.js';
import type { BranchView } from '../services/git/branches.js';
import type { Services } from '../services/index.js';
import type { LoadedRepo } from '../services/repos/repos.js';
import type { Config } from '../config.js';
import type { Auth } from '../permissions/caller.js';

export async function presentBranches(req: { services: Services; config: Config; auth: Auth }, loaded: LoadedRepo, rows: BranchView[]) {
  // The commits' authors and the protection rules in one statement (db/together.ts).
  const [[names, rules], verifications] = await Promise.all([
    req.services.together(
      req.services.users.namesByEmailRead(rows.flatMap((b) => [b.commit.author.email, b.commit.committer.email])),
      req.services.protections.rulesRead(loaded.repo.id),
    ),
    req.services.verifier.verify(req.services.branches.dir(loaded), rows.map((b) => b.commit)),
  ]);
  const html = repoUrls(req.config, loaded.owner.name, loaded.repo.name).html;
  const { protections } = req.services;
  const actor = req.auth.actor;
  return Promise.all(rows.map(async (b) => {
    const rule = await protections.ruleFor(loaded.repo.id, b.name, rules);
    const access = { rule, canPush: await protections.canPush(loaded, rule, actor), canMerge: await protections.canMerge(loaded, rule, actor) };
    return toBranch(b.name, b.commit, html, access, names, verifications.get(b.commit.id));
  }));
}
