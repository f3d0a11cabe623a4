// How much disk a repository's folder takes: the bytes of its regular files (objects, packs, refs, config),
// as Gitea counts a repository's git size. Files that vanish while counted (a gc or a lock file) are skipped.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function folderSize(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let total = 0;
  for (const e of entries) {
    if (!e.isFile()) continue;
    const parent = (e as unknown as { parentPath?: string; path?: string }).parentPath ?? (e as unknown as { path: string }).path;
    const st = await lstat(join(parent, e.name)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (st?.isFile()) total += st.size;
  }
  return total;
}
