// Bringing commits of one repository on this host into another (a fork's pull request into its base, a
// base's branch into the fork it updates): `git fetch` from the other repository's folder, no work tree.
import { git } from './core.js';

/**
 * Fetches `refspecs` (`src:dst`, or a bare `src` for the objects alone) from the repository at `from`
 * into `dir`: no tags, no FETCH_HEAD. A forced `+src:dst` moves `dst` wherever `src` points now.
 */
export async function fetchLocal(dir: string, from: string, refspecs: string[]): Promise<void> {
  await git(dir, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-auto-gc', '--', from, ...refspecs]);
}
