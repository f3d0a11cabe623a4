// What a pull request shows about its two branches: the merge base, the size of the change head
// brings (diffed from the merge base, as Gitea does) and whether it merges cleanly — three git calls.
import { git } from './core.js';

export interface Comparison {
  /** Empty when the two commits share no history. */
  mergeBase: string;
  additions: number;
  deletions: number;
  changedFiles: number;
  mergeable: boolean;
}

/** Totals of `git diff --numstat -z` output; binary files count as changed with no lines. */
export function numstatTotals(out: string): { additions: number; deletions: number; changedFiles: number } {
  const tokens = out.split('\0');
  let additions = 0;
  let deletions = 0;
  let changedFiles = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!.replace(/^\n/, '');
    if (!t) continue;
    const [a, d, path] = t.split('\t');
    // A rename or copy has an empty path here and its two paths in the next two tokens.
    if (path === '') i += 2;
    changedFiles++;
    if (a !== '-') additions += Number(a) || 0;
    if (d !== '-') deletions += Number(d) || 0;
  }
  return { additions, deletions, changedFiles };
}

export async function compareCommits(dir: string, base: string, head: string): Promise<Comparison> {
  const mb = await git(dir, ['merge-base', base, head], { okCodes: [1] });
  const mergeBase = mb.exitCode === 0 ? mb.stdout.trim() : '';
  if (!mergeBase) return { mergeBase, additions: 0, deletions: 0, changedFiles: 0, mergeable: false };
  const [diff, merge] = await Promise.all([
    git(dir, ['diff', '--numstat', '-z', '-M', '--no-ext-diff', '--no-textconv', mergeBase, head, '--']),
    // Exit 1 is a merge with conflicts; the trees it writes are unreferenced and left to gc.
    git(dir, ['merge-tree', '--write-tree', '--no-messages', '--name-only', base, head], { okCodes: [1] }),
  ]);
  return { mergeBase, ...numstatTotals(diff.stdout), mergeable: merge.exitCode === 0 };
}
