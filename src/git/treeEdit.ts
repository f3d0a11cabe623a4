// A commit of whole-file changes without a work tree: blobs written, a temporary index edited in one
// `update-index -z --index-info`, a tree and a commit written. The commit is on no branch yet: the caller
// moves the branch with a compare-and-swap (refs.ts), so a failed or lost write leaves nothing behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from './core.js';
import type { Signature } from './commit.js';
import { writeCommit, type CommitSigner } from './commitObject.js';

/** A path set to a blob (`mode` 100644, 100755 or 120000), or removed. */
export type IndexChange = { path: string; blob: string; mode: string } | { path: string; remove: true };

/** Writes `data` as a blob; answers its id. */
export async function writeBlob(dir: string, data: Buffer): Promise<string> {
  return (await git(dir, ['hash-object', '-w', '--stdin'], { stdin: data })).stdout.trim();
}

/** Answers the new commit's id (not yet on any branch). Without `parent` the tree starts empty (a first commit). */
export async function commitIndexChanges(
  dir: string,
  input: { parent?: string; changes: IndexChange[]; message: string; author: Signature; committer: Signature; sign?: CommitSigner },
): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'anvil-files-'));
  const env = { GIT_INDEX_FILE: join(tmp, 'index') };
  try {
    await git(dir, input.parent ? ['read-tree', input.parent] : ['read-tree', '--empty'], { env });
    // Mode 0 removes an entry; the id beside it is not read.
    const zero = '0'.repeat(input.parent?.length ?? 40);
    const lines = input.changes.map((c) => ('remove' in c ? `0 ${zero}\t${c.path}\0` : `${c.mode} ${c.blob}\t${c.path}\0`));
    await git(dir, ['update-index', '-z', '--index-info'], { env, stdin: lines.join('') });
    const { stdout: tree } = await git(dir, ['write-tree'], { env });
    return await writeCommit(dir, { tree: tree.trim(), parents: input.parent ? [input.parent] : [], author: input.author, committer: input.committer, message: input.message, sign: input.sign });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
