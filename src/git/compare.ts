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

/** `git diff` of `from`..`to` (renames detected); `binary` includes binary changes as git binary patches. */
export async function diffText(dir: string, from: string, to: string, binary: boolean): Promise<string> {
  return (await git(dir, ['diff', '-M', '--no-ext-diff', '--no-textconv', ...(binary ? ['--binary'] : []), from, to, '--'])).stdout;
}

/** What commit `id` changed against its first parent (everything, for a root commit), as `git diff`. */
export async function commitDiffText(dir: string, id: string): Promise<string> {
  return (await git(dir, ['diff-tree', '-p', '-M', '-r', '--root', '--diff-merges=first-parent', '--no-commit-id', '--no-ext-diff', '--no-textconv', id, '--'])).stdout;
}

/** Commit `id` alone as a `git format-patch` mail (a root commit too). */
export async function commitPatchText(dir: string, id: string): Promise<string> {
  return (await git(dir, ['format-patch', '--no-signature', '--stdout', '--no-binary', '-1', id, '--'])).stdout;
}

/** The commits of `from`..`to` as `git format-patch` mails, oldest first. */
export async function patchText(dir: string, from: string, to: string, binary: boolean): Promise<string> {
  return (await git(dir, ['format-patch', '--no-signature', '--stdout', ...(binary ? ['--binary'] : ['--no-binary']), `${from}..${to}`])).stdout;
}

export interface ChangedPath {
  path: string;
  /** The path before a rename or copy. */
  from?: string;
  /** git's status letter: A, D, M, T, R or C. */
  status: string;
  additions: number;
  deletions: number;
  binary: boolean;
}

export type WhitespaceMode = 'ignore-all' | 'ignore-change' | 'ignore-eol' | 'show-all';
const whitespaceFlags: Record<WhitespaceMode, string[]> = {
  'ignore-all': ['-w'], 'ignore-change': ['-b'], 'ignore-eol': ['--ignore-space-at-eol'], 'show-all': [],
};

/** The files `from`..`to` changes, in git's (path) order, with their line counts: one git call. */
export async function changedFiles(dir: string, from: string, to: string, whitespace: WhitespaceMode = 'show-all'): Promise<ChangedPath[]> {
  const { stdout } = await git(dir, ['diff', '--raw', '--numstat', '-z', '-M', '--no-ext-diff', '--no-textconv', ...whitespaceFlags[whitespace], from, to, '--']);
  const tokens = stdout.split('\0');
  const raw: Array<Pick<ChangedPath, 'path' | 'from' | 'status'>> = [];
  // By path: with whitespace ignored, numstat leaves out files whose changes are all whitespace.
  const counts = new Map<string, { additions: number; deletions: number; binary: boolean }>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!.replace(/^\n/, '');
    if (!t) continue;
    if (t.startsWith(':')) {
      const status = t.split(' ').at(-1)!.charAt(0);
      if (status === 'R' || status === 'C') raw.push({ status, from: tokens[++i]!, path: tokens[++i]! });
      else raw.push({ status, path: tokens[++i]! });
      continue;
    }
    const [a, d, named] = t.split('\t');
    // A rename or copy has an empty path here and its two paths in the next two tokens.
    const path = named === '' ? tokens[(i += 2)]! : named!;
    counts.set(path, { additions: a === '-' ? 0 : Number(a), deletions: d === '-' ? 0 : Number(d), binary: a === '-' });
  }
  return raw.map((r) => ({ ...r, ...(counts.get(r.path) ?? { additions: 0, deletions: 0, binary: false }) }));
}

/** The commits of `to` that `from` lacks, newest first (rev-list's order). */
export async function commitsBetween(dir: string, from: string, to: string): Promise<string[]> {
  const { stdout } = await git(dir, ['rev-list', `${from}..${to}`]);
  return stdout.split('\n').filter(Boolean);
}

/** Lines added and deleted by each commit against its first parent (the empty tree for a root): one git call. */
export async function commitLineStats(dir: string, ids: string[]): Promise<Map<string, { additions: number; deletions: number }>> {
  const out = new Map<string, { additions: number; deletions: number }>(ids.map((id) => [id, { additions: 0, deletions: 0 }]));
  if (ids.length === 0) return out;
  const { stdout } = await git(dir, ['diff-tree', '--stdin', '-r', '--root', '-m', '--first-parent', '--numstat', '-z', '--no-renames'], { stdin: `${ids.join('\n')}\n` });
  let current: { additions: number; deletions: number } | undefined;
  for (const token of stdout.split('\0')) {
    const t = token.replace(/^\n/, '');
    if (!t) continue;
    if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(t)) {
      current = out.get(t);
      continue;
    }
    const [a, d] = t.split('\t');
    if (!current || d === undefined) continue;
    current.additions += a === '-' ? 0 : Number(a) || 0;
    current.deletions += d === '-' ? 0 : Number(d) || 0;
  }
  return out;
}

/**
 * The hunk of `from`..`to`'s diff of `path` holding `line` (positive: a line of the new file, negative:
 * of the old one), up to that line: what a review comment shows of the code it is about. '' when no
 * hunk holds the line.
 */
export async function diffHunkAt(dir: string, from: string, to: string, path: string, line: number): Promise<string> {
  const { stdout } = await git(dir, ['diff', '-M', '--no-ext-diff', '--no-textconv', '-U3', from, to, '--', path]);
  const lines = stdout.split('\n');
  const target = Math.abs(line);
  const onNew = line > 0;
  for (let i = 0; i < lines.length; i++) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(lines[i]!);
    if (!m) continue;
    let oldLine = Number(m[1]);
    let newLine = Number(m[3]);
    const out = [lines[i]!];
    for (let j = i + 1; j < lines.length && !lines[j]!.startsWith('@@'); j++) {
      const l = lines[j]!;
      if (l.startsWith('\\')) continue;
      const kind = l[0];
      if (kind !== '+' && kind !== '-' && kind !== ' ') break;
      out.push(l);
      const here = onNew ? kind !== '-' && newLine === target : kind !== '+' && oldLine === target;
      if (here) return out.join('\n');
      if (kind !== '+') oldLine++;
      if (kind !== '-') newLine++;
    }
  }
  return '';
}
