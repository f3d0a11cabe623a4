import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git } from './core.js';

/** A new bare repository whose HEAD names `defaultBranch` (which does not exist until a first commit). */
export async function initBare(dir: string, opts: { objectFormat: 'sha1' | 'sha256'; defaultBranch: string }): Promise<void> {
  mkdirSync(dirname(dir), { recursive: true });
  // No template: the sample hooks, `description` and `info/exclude` git would copy in are never used
  // (anvil installs no hooks), and a repository of 9 files instead of 27 is quicker to make and remove.
  await git(dirname(dir), ['init', '--bare', '--quiet', '--template=', `--object-format=${opts.objectFormat}`, `--initial-branch=${opts.defaultBranch}`, dir]);
  // Pushes over HTTP must be able to create and update refs. Written into the config git just made (one
  // section appended) rather than by a second `git config` process.
  appendFileSync(join(dir, 'config'), '[http]\n\treceivepack = true\n');
}
