// Reads by exact paths: tree entries, the commits that touched a file. Pathspecs are literal here
// (GIT_LITERAL_PATHSPECS), because a file name from a request may hold `*`, `?`, `[` or a leading `:`.
import { git } from './core.js';
import type { TreeEntry } from './objects.js';

const literal = { env: { GIT_LITERAL_PATHSPECS: '1' } };

/** The entries at `paths` in `commit`'s tree (one git call), by path; absent paths are missing from the map. */
export async function entriesAt(dir: string, commit: string, paths: string[]): Promise<Map<string, TreeEntry>> {
  const out = new Map<string, TreeEntry>();
  if (!paths.length) return out;
  const { stdout } = await git(dir, ['ls-tree', '-z', '--long', '--full-tree', commit, '--', ...paths], literal);
  for (const line of stdout.split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, id, size] = line.slice(0, tab).split(/\s+/);
    const path = line.slice(tab + 1);
    out.set(path, { mode: mode!, type: type as TreeEntry['type'], id: id!, size: size === '-' ? 0 : Number(size), path });
  }
  return out;
}

/** The commits up to `commit` that touched `path`, newest first. */
export async function commitsTouching(dir: string, commit: string, path: string): Promise<string[]> {
  const { stdout } = await git(dir, ['rev-list', commit, '--', path], literal);
  return stdout.split('\n').filter(Boolean);
}

/** The last commit up to `commit` that touched `path`. */
export async function lastCommitTouching(dir: string, commit: string, path: string): Promise<string | undefined> {
  const { stdout } = await git(dir, ['rev-list', '-n', '1', commit, '--', path], literal);
  return stdout.trim() || undefined;
}
