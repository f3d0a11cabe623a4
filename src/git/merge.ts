// Merging without a work tree: `git merge-tree --write-tree` computes merged trees from objects alone,
// `commit-tree` writes the commits, and the caller moves the branch with a compare-and-swap. Every object
// written here is unreferenced until that ref update, so a failed or abandoned merge leaves only garbage
// for gc. Works with git 2.38+ (no `merge-tree --merge-base`: a cherry-pick's base is forced with a
// throw-away commit instead, see replay()).
import { git } from './core.js';
import { signatureEnv, type Signature } from './commit.js';
import { signCommit, type CommitSigner } from './commitObject.js';

/** The merge of two commits conflicts (the conflicting paths are listed). */
export class MergeConflict extends Error {
  constructor(readonly paths: string[], readonly commit?: string) {
    super(`merge conflict in ${paths.join(', ') || 'the tree'}`);
  }
}

/** The merged tree of `ours` and `theirs` (their merge base is git's); throws MergeConflict. */
export async function mergeTree(dir: string, ours: string, theirs: string): Promise<string> {
  const r = await git(dir, ['merge-tree', '--write-tree', '--no-messages', '--name-only', ours, theirs], { okCodes: [1] });
  const lines = r.stdout.split('\n').filter(Boolean);
  if (r.exitCode === 1) throw new MergeConflict(lines.slice(1));
  return lines[0]!;
}

/** Whether `ancestor` is reachable from `descendant` (equal ids count; an object the repository lacks is not). */
export async function isAncestor(dir: string, ancestor: string, descendant: string): Promise<boolean> {
  const r = await git(dir, ['merge-base', '--is-ancestor', ancestor, descendant], { okCodes: [1, 128] });
  return r.exitCode === 0;
}

export const treeOf = async (dir: string, commit: string) => (await git(dir, ['rev-parse', `${commit}^{tree}`])).stdout.trim();

/** A commit of `tree` with `parents`; the identities' dates default to now. */
export async function commitTree(
  dir: string, tree: string, parents: string[], message: string, author: Signature, committer: Signature, authorDate?: string, sign?: CommitSigner,
): Promise<string> {
  const env = signatureEnv(author, committer);
  if (authorDate) env.GIT_AUTHOR_DATE = authorDate;
  const { stdout } = await git(dir, ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'], {
    stdin: message.endsWith('\n') ? message : `${message}\n`,
    env,
  });
  return sign ? signCommit(dir, stdout.trim(), sign) : stdout.trim();
}

interface RawCommit {
  tree: string;
  parents: string[];
  author: Signature;
  /** As git stores it ("1700000000 +0200"), so the replayed commit keeps the author's time zone. */
  authorDate: string;
  message: string;
}

async function rawCommit(dir: string, id: string): Promise<RawCommit> {
  const text = (await git(dir, ['cat-file', 'commit', id])).stdout;
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const out: RawCommit = { tree: '', parents: [], author: { name: '', email: '' }, authorDate: '', message: end < 0 ? '' : text.slice(end + 2) };
  for (const line of head.split('\n')) {
    if (line.startsWith('tree ')) out.tree = line.slice(5);
    else if (line.startsWith('parent ')) out.parents.push(line.slice(7));
    else if (line.startsWith('author ')) {
      const m = /^author (.*) <([^>]*)> (\d+ [+-]\d{4})$/s.exec(line);
      if (m) [out.author, out.authorDate] = [{ name: m[1]!, email: m[2]! }, `@${m[3]!}`];
    }
  }
  return out;
}

/**
 * The commits `git rebase upstream head` would replay, oldest first: those of head not reachable from
 * upstream, without merge commits and without those whose change upstream already has (patch id).
 */
export async function commitsToReplay(dir: string, upstream: string, head: string): Promise<string[]> {
  const { stdout } = await git(dir, ['rev-list', '--reverse', '--topo-order', '--no-merges', '--right-only', '--cherry-pick', `${upstream}...${head}`]);
  return stdout.split('\n').filter(Boolean);
}

/**
 * Replays `commits` onto `onto`, one three-way merge per commit with the commit's parent as base (a
 * cherry-pick): authors and messages kept, `committer` now. A commit whose change is already there is
 * dropped, as rebase does. Answers the new tip; throws MergeConflict naming the commit that conflicts.
 */
export async function replay(dir: string, onto: string, commits: string[], committer: Signature, sign?: CommitSigner): Promise<string> {
  let tip = onto;
  let tipTree = await treeOf(dir, onto);
  for (const id of commits) {
    const c = await rawCommit(dir, id);
    const parent = c.parents[0];
    let tree: string;
    if (!parent) tree = c.tree;
    else {
      // merge-tree picks the merge base itself: a throw-away commit of the current tree whose only
      // parent is the replayed commit's parent makes that parent the base.
      const stand = await commitTree(dir, tipTree, [parent], 'replay', committer, committer);
      try {
        tree = await mergeTree(dir, stand, id);
      } catch (err) {
        if (err instanceof MergeConflict) throw new MergeConflict(err.paths, id);
        throw err;
      }
    }
    if (tree === tipTree) continue;
    tip = await commitTree(dir, tree, [tip], c.message, c.author, committer, c.authorDate, sign);
    tipTree = tree;
  }
  return tip;
}
