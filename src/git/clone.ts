import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { git } from './core.js';

/**
 * A bare copy of the repository at `source` in `dir`, with every branch and tag. The objects are
 * hard-linked, not shared through alternates, so that the copy stays whole when `source` is deleted later.
 * No remote is left behind; HEAD names the source's default branch.
 */
export async function cloneBareLocal(source: string, dir: string): Promise<void> {
  mkdirSync(dirname(dir), { recursive: true });
  await git(dirname(dir), ['clone', '--bare', '--local', '--quiet', '--', source, dir]);
  await git(dir, ['remote', 'remove', 'origin']);
  // Pushes over HTTP must be able to create and update refs (as for a new repository).
  await git(dir, ['config', 'http.receivepack', 'true']);
}
