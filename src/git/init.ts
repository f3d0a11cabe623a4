import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { git } from './core.js';

/** A new bare repository whose HEAD names `defaultBranch` (which does not exist until a first commit). */
export async function initBare(dir: string, opts: { objectFormat: 'sha1' | 'sha256'; defaultBranch: string }): Promise<void> {
  mkdirSync(dirname(dir), { recursive: true });
  await git(dirname(dir), ['init', '--bare', '--quiet', `--object-format=${opts.objectFormat}`, `--initial-branch=${opts.defaultBranch}`, dir]);
  // Pushes over HTTP must be able to create and update refs; no hooks are installed by anvil.
  await git(dir, ['config', 'http.receivepack', 'true']);
}
