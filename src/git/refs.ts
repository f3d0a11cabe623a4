// Reading and changing refs. Ref names reaching here were validated (services/names.ts).
import { git } from './core.js';
import { zeroIdLike } from './commit.js';
import { readRef, readRefNames, readRefs } from './refFiles.js';
import { writeRefFile } from './refWrite.js';

export interface RefTip {
  name: string;
  commit: string;
}

/** Local branches with their tip commits, sorted by name, or (Gitea's list order) newest tip commit first, then by name. */
export async function listBranchTips(dir: string, opts: { newestFirst?: boolean } = {}): Promise<RefTip[]> {
  // for-each-ref's last --sort key is the primary one.
  if (!opts.newestFirst) {
    const refs = await readRefs(dir, ['refs/heads']);
    if (refs) return [...refs].map(([ref, commit]) => ({ name: ref.slice('refs/heads/'.length), commit }));
  }
  const sort = opts.newestFirst ? ['--sort=refname', '--sort=-committerdate'] : [];
  const { stdout } = await git(dir, ['for-each-ref', ...sort, '--format=%(objectname) %(refname:strip=2)', 'refs/heads/']);
  return stdout.split('\n').filter(Boolean).map((l) => {
    const i = l.indexOf(' ');
    return { commit: l.slice(0, i), name: l.slice(i + 1) };
  });
}

export async function listBranches(dir: string): Promise<string[]> {
  return (await listBranchTips(dir)).map((b) => b.name);
}

/** The tips of the named branches, in one call; a missing branch is absent from the map. */
export async function branchTipsOf(dir: string, names: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (names.length === 0) return out;
  const refs = await readRefs(dir, ['refs/heads']);
  if (refs) {
    for (const n of names) {
      const tip = refs.get(`refs/heads/${n}`);
      if (tip) out.set(n, tip);
    }
    return out;
  }
  // A pattern also matches the refs below it (a → a/b): keep the exact names only.
  const { stdout } = await git(dir, ['for-each-ref', '--format=%(objectname) %(refname:strip=2)', ...names.map((n) => `refs/heads/${n}`)]);
  for (const l of stdout.split('\n').filter(Boolean)) {
    const i = l.indexOf(' ');
    if (names.includes(l.slice(i + 1))) out.set(l.slice(i + 1), l.slice(0, i));
  }
  return out;
}

export async function setHead(dir: string, branch: string): Promise<void> {
  await git(dir, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
}

/** The object a full ref points at, or undefined. */
export async function refTarget(dir: string, ref: string): Promise<string | undefined> {
  if (ref.length > MAX_REV_LENGTH) return undefined;
  const read = await readRef(dir, ref);
  if (read !== undefined) return read ?? undefined;
  const r = await git(dir, ['rev-parse', '--verify', '--quiet', ref], { okCodes: [1, 128] });
  return r.exitCode === 0 ? r.stdout.trim() : undefined;
}

/**
 * The longest revision worth asking git about: git writes a new ref as a file, so no ref name is longer
 * than a path may be (PATH_MAX). A longer text names nothing, and as a git argument past 128 KiB it would
 * not even start git (E2BIG).
 */
export const MAX_REV_LENGTH = 4096;

/** Resolves a branch, tag or commit id (full or abbreviated) to a commit id, or undefined. */
export async function resolveCommit(dir: string, rev: string): Promise<string | undefined> {
  if (rev.startsWith('-') || rev.length > MAX_REV_LENGTH) return undefined;
  for (const candidate of [`refs/heads/${rev}`, `refs/tags/${rev}`, rev]) {
    const r = await git(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${candidate}^{commit}`], { okCodes: [1, 128] });
    if (r.exitCode === 0) return r.stdout.trim();
  }
  return undefined;
}

/** Creates `ref` at `target`; fails (GitError) when it exists already. */
export async function createRef(dir: string, ref: string, target: string): Promise<void> {
  if (await writeRefFile(dir, ref, target, zeroIdLike(target))) return;
  await git(dir, ['update-ref', '-m', 'anvil', ref, target, zeroIdLike(target)]);
}

/** Points `ref` at `target`, whatever it pointed at (for refs anvil alone keeps, such as refs/pull/N/head). */
export async function setRef(dir: string, ref: string, target: string): Promise<void> {
  await git(dir, ['update-ref', '-m', 'anvil', ref, target]);
}

/** Moves `ref` from `expected` to `target`; fails (GitError) when it moved meanwhile. */
export async function moveRef(dir: string, ref: string, target: string, expected: string): Promise<void> {
  if (await writeRefFile(dir, ref, target, expected)) return;
  await git(dir, ['update-ref', '-m', 'anvil', ref, target, expected]);
}

export async function deleteRef(dir: string, ref: string, expected: string): Promise<void> {
  await git(dir, ['update-ref', '-d', ref, expected]);
}

/**
 * Renames a ref in one git transaction: `to` is made at `tip` (it must not exist) and `from` is deleted (it
 * must still point at `tip`); either both happen or neither (GitError).
 */
export async function renameRef(dir: string, from: string, to: string, tip: string): Promise<void> {
  await git(dir, ['update-ref', '-m', 'anvil: rename', '--stdin'], { stdin: `start\ncreate ${to} ${tip}\ndelete ${from} ${tip}\nprepare\ncommit\n` });
}

/** The full names of every branch and tag (path-conflict checks: a/b against a). */
export async function refNames(dir: string): Promise<Set<string>> {
  return (await readRefNames(dir, ['refs/heads', 'refs/tags'])) ?? new Set((await refTargets(dir)).keys());
}

/** How many branches there are. */
export async function branchCount(dir: string): Promise<number> {
  const names = await readRefNames(dir, ['refs/heads']);
  return names ? names.size : (await listBranchTips(dir)).length;
}

/** Every branch and tag with the object it points at, in one process. */
export async function refTargets(dir: string): Promise<Map<string, string>> {
  const read = await readRefs(dir, ['refs/heads', 'refs/tags']);
  if (read) return read;
  const { stdout } = await git(dir, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/', 'refs/tags/']);
  const out = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) out.set(line.slice(space + 1), line.slice(0, space));
  }
  return out;
}

export async function allRefNames(dir: string): Promise<string[]> {
  const { stdout } = await git(dir, ['for-each-ref', '--format=%(refname)', 'refs/heads/', 'refs/tags/']);
  return stdout.split('\n').filter(Boolean);
}

/** The branch HEAD names (it may not exist yet), or undefined for a detached or broken HEAD. */
export async function headBranch(dir: string): Promise<string | undefined> {
  const r = await git(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okCodes: [1, 128] });
  return r.exitCode === 0 ? r.stdout.trim() : undefined;
}
