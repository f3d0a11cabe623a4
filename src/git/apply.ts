// Applies a unified diff to a commit's tree without a work tree and commits the result.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, GitError } from './core.js';
import type { Signature } from './commit.js';
import { writeCommit, type CommitSigner } from './commitObject.js';

export class PatchDoesNotApply extends Error {}

/** Returns the new commit id (not yet on any branch). */
export async function commitPatch(
  dir: string,
  input: { parent: string; patch: string; message: string; author: Signature; committer: Signature; sign?: CommitSigner },
): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'anvil-apply-'));
  const env = { GIT_INDEX_FILE: join(tmp, 'index') };
  try {
    await git(dir, ['read-tree', input.parent], { env });
    try {
      await git(dir, ['apply', '--cached', '--recount', '--ignore-whitespace', '--whitespace=fix', '--binary', '-'], {
        env,
        stdin: input.patch.endsWith('\n') ? input.patch : `${input.patch}\n`,
      });
    } catch (err) {
      if (err instanceof GitError) throw new PatchDoesNotApply(err.stderr.trim().split('\n').slice(0, 5).join('; ') || 'patch does not apply');
      throw err;
    }
    const { stdout: tree } = await git(dir, ['write-tree'], { env });
    return await writeCommit(dir, { tree: tree.trim(), parents: [input.parent], author: input.author, committer: input.committer, message: input.message, sign: input.sign });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
