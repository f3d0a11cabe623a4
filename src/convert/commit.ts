import type { components } from '../../generated/openapi.js';
import type { ChangedPath } from '../git/compare.js';
import type { DescribedCommit } from '../git/describe.js';
import { escapePath } from './repo.js';
import type { ApiUser } from './user.js';
import type { CommitData, Person } from '../git/objects.js';
import type { CommitVerification } from '../services/keys/verification.js';
import { iso } from './time.js';

type Schemas = components['schemas'];

/** What Gitea reports for an unsigned commit (and anvil for objects whose signature it does not check: tags). */
export function unverified(): Schemas['PayloadCommitVerification'] {
  return { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };
}

/** A commit's verification; the signer as Gitea shows it (the account's name and e-mail). */
export function toVerification(v: CommitVerification | undefined): Schemas['PayloadCommitVerification'] {
  if (!v) return unverified();
  return { verified: v.verified, reason: v.reason, signature: v.signature, payload: v.payload, signer: v.signer ? { name: v.signer.name, email: v.signer.email, username: '' } : null };
}

export function commitUser(p: Person): Schemas['CommitUser'] {
  return { name: p.name, email: p.email, date: iso(p.date) };
}

/** `usernames` maps lower-cased e-mail addresses to account names, for `username`. */
export function toPayloadCommit(c: DescribedCommit, repoHtml: string, usernames: Map<string, string> = new Map(), verification?: CommitVerification): Schemas['PayloadCommit'] {
  const user = (p: Person): Schemas['PayloadUser'] => ({ name: p.name, email: p.email, username: usernames.get(p.email.toLowerCase()) ?? '' });
  return {
    id: c.id,
    message: c.message,
    url: `${repoHtml}/commit/${c.id}`,
    author: user(c.author),
    committer: user(c.committer),
    verification: toVerification(verification),
    timestamp: iso(c.committer.date),
    added: c.added,
    removed: c.removed,
    modified: c.modified,
  };
}

export function toFileCommit(c: CommitData, repoHtml: string, repoApi: string): Schemas['FileCommitResponse'] {
  const meta = (sha: string, kind: 'commits' | 'trees'): Schemas['CommitMeta'] => ({
    url: `${repoApi}/git/${kind}/${sha}`,
    sha,
    created: iso(c.committer.date),
  });
  return {
    url: `${repoApi}/git/commits/${c.id}`,
    sha: c.id,
    created: iso(c.committer.date),
    html_url: `${repoHtml}/commit/${c.id}`,
    author: commitUser(c.author),
    committer: commitUser(c.committer),
    parents: c.parents.map((p) => meta(p, 'commits')),
    message: c.message,
    tree: meta(c.tree, 'trees'),
  };
}


const fileStatus = (f: ChangedPath): Schemas['ChangedFile']['status'] => {
  switch (f.status) {
    case 'A':
      return 'added';
    case 'D':
      return 'deleted';
    case 'R':
      return 'renamed';
    case 'C':
      return 'copied';
    default:
      // A mode change alone changes no line (Gitea's `unchanged`); a binary file always counts as changed.
      return f.additions + f.deletions === 0 && !f.binary ? 'unchanged' : 'changed';
  }
};

/** A file a pull request changes, with its links at the head commit (Gitea's ChangedFile). */
export function toChangedFile(f: ChangedPath, headSha: string, urls: { html: string; api: string }): Schemas['ChangedFile'] {
  return {
    filename: f.path,
    ...(f.status === 'R' && f.from ? { previous_filename: f.from } : {}),
    status: fileStatus(f),
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    html_url: `${urls.html}/src/commit/${headSha}/${escapePath(f.path)}`,
    contents_url: `${urls.api}/contents/${escapePath(f.path)}?ref=${headSha}`,
    raw_url: `${urls.html}/raw/commit/${headSha}/${escapePath(f.path)}`,
  };
}

/**
 * A commit as Gitea's commit lists show it. `accounts` maps lower-cased e-mail addresses to users (author
 * and committer); `files` and `verification` are null when not asked for.
 */
export function toCommit(
  c: DescribedCommit,
  stats: { additions: number; deletions: number } | null,
  urls: { html: string; api: string },
  accounts: { author: ApiUser | null; committer: ApiUser | null },
  opts: { files: boolean; verification?: CommitVerification | null },
): Schemas['Commit'] {
  const meta = (sha: string, kind: 'commits' | 'trees'): Schemas['CommitMeta'] => ({ url: `${urls.api}/git/${kind}/${sha}`, sha, created: iso(c.committer.date) });
  const files = opts.files
    ? [
        ...c.added.map((filename) => ({ filename, status: 'added' as const })),
        ...c.removed.map((filename) => ({ filename, status: 'removed' as const })),
        ...c.modified.map((filename) => ({ filename, status: 'modified' as const })),
      ].sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0))
    : null;
  return {
    url: `${urls.api}/git/commits/${c.id}`,
    sha: c.id,
    created: iso(c.committer.date),
    html_url: `${urls.html}/commit/${c.id}`,
    commit: {
      url: `${urls.api}/git/commits/${c.id}`,
      author: commitUser(c.author),
      committer: commitUser(c.committer),
      message: c.message,
      tree: meta(c.tree, 'trees'),
      verification: opts.verification === null ? null : toVerification(opts.verification),
    },
    author: accounts.author,
    committer: accounts.committer,
    parents: c.parents.map((p) => meta(p, 'commits')),
    files,
    stats: stats && { total: stats.additions + stats.deletions, additions: stats.additions, deletions: stats.deletions },
  };
}
