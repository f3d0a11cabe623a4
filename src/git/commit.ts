// Writes a commit without a work tree: files → blobs → a temporary index → tree → commit, then a
// compare-and-swap ref update, so concurrent writers never lose each other's commits silently.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from './core.js';
import { writeCommit, type CommitSigner } from './commitObject.js';
import type { Signature } from './signature.js';

export { rawTime, signatureEnv, type Signature } from './signature.js';

export interface CommitFilesInput {
  branch: string;
  files: Array<{ path: string; content: string | Buffer; mode?: '100644' | '100755' }>;
  /** Paths to remove from the parent's tree. */
  remove?: string[];
  message: string;
  author: Signature;
  committer?: Signature;
  /** The commit the branch must point at now; undefined when the branch must not exist yet. */
  parent?: string;
  /** Signs the commit (absent: unsigned). */
  sign?: CommitSigner;
}


/** The all-zero id of the object format of `id` (an id of the same repository): no git process needed. */
export const zeroIdLike = (id: string): string => '0'.repeat(id.length);

export async function zeroId(dir: string): Promise<string> {
  const { stdout } = await git(dir, ['rev-parse', '--show-object-format']);
  return '0'.repeat(stdout.trim() === 'sha256' ? 64 : 40);
}

/** Returns the new commit id. Throws GitError when the branch moved meanwhile (ref lock / old value mismatch). */
export async function commitFiles(dir: string, input: CommitFilesInput): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'anvil-index-'));
  const env = { GIT_INDEX_FILE: join(tmp, 'index') };
  try {
    if (input.parent) await git(dir, ['read-tree', input.parent], { env });
    else await git(dir, ['read-tree', '--empty'], { env });
    // Mode 0 removes an entry (`--force-remove` would want a work tree).
    if (input.remove?.length) {
      const zero = '0'.repeat(input.parent?.length ?? 40);
      await git(dir, ['update-index', '-z', '--index-info'], { env, stdin: input.remove.map((p) => `0 ${zero}\t${p}\0`).join('') });
    }
    for (const f of input.files) {
      const { stdout: sha } = await git(dir, ['hash-object', '-w', '--stdin'], { stdin: f.content });
      await git(dir, ['update-index', '--add', '--cacheinfo', `${f.mode ?? '100644'},${sha.trim()},${f.path}`], { env });
    }
    const { stdout: tree } = await git(dir, ['write-tree'], { env });
    const id = await writeCommit(dir, {
      tree: tree.trim(), parents: input.parent ? [input.parent] : [], author: input.author, committer: input.committer ?? input.author, message: input.message, sign: input.sign,
    });
    await git(dir, ['update-ref', '-m', 'anvil', `refs/heads/${input.branch}`, id, input.parent ?? zeroIdLike(id)]);
    return id;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
