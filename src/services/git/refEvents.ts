// What a change of refs means as events: a moved or new branch is a push (with the commits it brought,
// the feed's commit_repo) and a new ref a create, a new tag a push_tag, a deleted ref a delete. The git
// facts are read here, before the recording transaction opens (PGlite has one connection).
import type { RefChange } from '../../git/pushLog.js';
import { pushedCommits } from '../../git/pushLog.js';
import type { DomainEvent, PushCommit } from '../events/types.js';

/** Commits described per push (the payload's `commits`); `total_commits` counts them all. */
export const pushCommitLimit = 20;
/** Commits shown in a commit_repo feed row (Gitea's FEED_MAX_COMMIT_NUM). */
const feedCommitLimit = 5;

type Scope = Pick<DomainEvent, 'actorId' | 'repoId' | 'ownerId' | 'isPrivate'>;

const isZero = (sha: string) => /^0+$/.test(sha);
const shortName = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, '');

/**
 * A pushed commit as it can be stored: git lets a commit's message and identities hold NUL, which no
 * PostgreSQL text or jsonb value can (the push's record would fail after its refs moved); it becomes U+FFFD.
 */
const noNul = (s: string) => s.replaceAll('\0', '\ufffd');
function storable(c: PushCommit): PushCommit {
  if (!`${c.message}${c.author.name}${c.author.email}${c.committer.name}${c.committer.email}`.includes('\0')) return c;
  return {
    ...c,
    message: noNul(c.message),
    author: { ...c.author, name: noNul(c.author.name), email: noNul(c.author.email) },
    committer: { ...c.committer, name: noNul(c.committer.name), email: noNul(c.committer.email) },
  };
}

/** Gitea's commit_repo content: the pushed commits as JSON, newest first. */
function feedContent(commits: PushCommit[], total: number, compare: string): string {
  const shown = commits.slice(0, feedCommitLimit).map((c) => ({
    Sha1: c.id,
    Message: c.message,
    AuthorEmail: c.author.email,
    AuthorName: c.author.name,
    CommitterEmail: c.committer.email,
    CommitterName: c.committer.name,
    Timestamp: c.committer.date,
  }));
  return JSON.stringify({ Commits: shown, HeadCommit: shown[0] ?? null, CompareURL: compare, Len: total });
}

/**
 * The events of a set of ref changes. `known` are the tips that existed before (a new branch brings only
 * the commits none of them reaches).
 */
export async function refChangeEvents(dir: string, scope: Scope, repoPath: string, changes: RefChange[], known: string[]): Promise<DomainEvent[]> {
  const out: DomainEvent[] = [];
  for (const c of changes) {
    const tag = c.ref.startsWith('refs/tags/');
    const refType = tag ? 'tag' : 'branch';
    const name = shortName(c.ref);
    if (isZero(c.after)) {
      out.push({ type: 'delete', refType, ref: name, sha: c.before, ...scope, activity: { opType: tag ? 'delete_tag' : 'delete_branch', refName: c.ref } });
      continue;
    }
    const created = isZero(c.before);
    if (created) out.push({ type: 'create', refType, ref: name, sha: c.after, ...scope });
    const exclude = created ? known : [c.before];
    // A branch created at a commit it was told is known brings no new commits: no need to ask git.
    const pushed = tag || exclude.includes(c.after) ? { commits: [], total: 0 } : await pushedCommits(dir, c.after, exclude, pushCommitLimit);
    const { total } = pushed;
    const commits = pushed.commits.map(storable);
    const compare = created ? '' : `${repoPath}/compare/${c.before}...${c.after}`;
    out.push({
      type: 'push', ref: c.ref, before: c.before, after: c.after, commits, totalCommits: total, ...scope,
      // A branch made from an existing commit (the API's create branch) brings nothing to the feed.
      activity: tag
        ? { opType: 'push_tag', refName: c.ref }
        : created && total === 0
          ? undefined
          : { opType: 'commit_repo', refName: c.ref, content: feedContent(commits, total, compare) },
    });
  }
  return out;
}
