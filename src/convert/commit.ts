import type { components } from '../../generated/openapi.js';
import type { DescribedCommit } from '../git/describe.js';
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
