// Reads by one exact path: a tree entry, the commits that touched it. Pathspecs are literal here
// (GIT_LITERAL_PATHSPECS), because a file name from a request may hold `*`, `?`, `[` or a leading `:`.
import { git } from './core.js';
import type { TreeEntry } from './objects.js';

const literal = { env: { GIT_LITERAL_PATHSPECS: '1' } };

/** The entry at `path` in `commit`'s tree, or undefined. */
export async function entryAt(dir: string, commit: string, path: string): Promise<TreeEntry | undefined> {
  const { stdout } = await git(dir, ['ls-tree', '-z', '--long', '--full-tree', commit, '--', path], literal);
  for (const line of stdout.split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0 || line.slice(tab + 1) !== path) continue;
    const [mode, type, id, size] = line.slice(0, tab).split(/\s+/);
    return { mode: mode!, type: type as TreeEntry['type'], id: id!, size: size === '-' ? 0 : Number(size), path };
  }
  return undefined;
}

/** The last commit up to `commit` that touched `path`. */
export async function lastCommitTouching(dir: string, commit: string, path: string): Promise<string | undefined> {
  const { stdout } = await git(dir, ['rev-list', '-n', '1', commit, '--', path], literal);
  return stdout.trim() || undefined;
}

/** How many commits up to `commit` touched `path`. */
export async function countCommitsTouching(dir: string, commit: string, path: string): Promise<number> {
  const { stdout } = await git(dir, ['rev-list', '--count', commit, '--', path], literal);
  return Number(stdout.trim());
}
