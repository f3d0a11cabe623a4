// Git objects as the git-data API shows them: every ref with its object, a tree's entries, a tree id.
import { git } from './core.js';
import type { TreeEntry } from './objects.js';

export interface RefObject {
  ref: string;
  sha: string;
  type: string;
}

/** Every ref (branches, tags, pull-request heads, ...) with the object it names, sorted by name. */
export async function allRefs(dir: string): Promise<RefObject[]> {
  const { stdout } = await git(dir, ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(objecttype)']);
  return stdout.split('\n').filter(Boolean).map((l) => {
    const [ref, sha, type] = l.split('\0');
    return { ref: ref!, sha: sha!, type: type! };
  });
}

/** The tree `rev` names: a tree id, or a commit, branch or tag whose tree is meant; undefined if none. */
export async function treeOf(dir: string, rev: string): Promise<string | undefined> {
  if (!rev || rev.startsWith('-')) return undefined;
  for (const candidate of [`refs/heads/${rev}`, `refs/tags/${rev}`, rev]) {
    const r = await git(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${candidate}^{tree}`], { okCodes: [1, 128] });
    if (r.exitCode === 0) return r.stdout.trim();
  }
  return undefined;
}

/** The entries of a tree in git's order; `recursive`: those of its subtrees too (trees included). */
export async function treeEntries(dir: string, tree: string, recursive: boolean): Promise<TreeEntry[]> {
  const { stdout } = await git(dir, ['ls-tree', '-z', '--long', ...(recursive ? ['-r', '-t'] : []), tree]);
  return stdout.split('\0').filter(Boolean).map((line) => {
    const tab = line.indexOf('\t');
    const [mode, type, id, size] = line.slice(0, tab).split(/\s+/);
    return { mode: mode!, type: type as TreeEntry['type'], id: id!, size: size === '-' ? 0 : Number(size), path: line.slice(tab + 1) };
  });
}
