// Commits as the commit lists show them: the accounts of their authors and committers and their signature
// verification read for the whole page at once, then converted.
import { toCommit } from '../convert/commit.js';
import { repoUrls } from '../convert/repo.js';
import { toUser } from '../convert/user.js';
import type { Config } from '../config.js';
import type { PullCommit } from '../services/pulls/pullChanges.js';
import type { Services } from '../services/index.js';
import type { LoadedRepo } from '../services/repos/repos.js';
import type { Auth } from '../permissions/caller.js';

type Ctx = { services: Services; auth: Auth; config: Config };

/** `stat: false` leaves the line stats out (null), as Gitea's `stat=false`. */
export async function presentCommits(req: Ctx, loaded: LoadedRepo, rows: PullCommit[], opts: { files: boolean; verification: boolean; stat?: boolean }) {
  const commits = rows.map((r) => r.commit);
  const [accounts, verifications] = await Promise.all([
    req.services.users.byEmails(commits.flatMap((c) => [c.author.email, c.committer.email])),
    opts.verification ? req.services.verifier.verify(req.services.branches.dir(loaded), commits) : undefined,
  ]);
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  const account = (email: string) => {
    const user = accounts.get(email.toLowerCase());
    return user ? toUser(user, req.auth.actor, req.config) : null;
  };
  return rows.map((r) =>
    toCommit(r.commit, opts.stat === false ? null : r, urls, { author: account(r.commit.author.email), committer: account(r.commit.committer.email) }, {
      files: opts.files,
      verification: verifications ? verifications.get(r.commit.id) : null,
    }),
  );
}
