// A template repository's files as the first commit of a new repository (Gitea's generate: a new commit
// with the files, never the template's history). Paths are binary strings (one character per byte), so
// names that are not UTF-8 arrive unchanged. Works without a work tree: the unchanged blobs travel in one
// pack (`pack-objects` in the template, `index-pack` in the new repository), changed contents are written
// as new blobs, and a temporary index makes the tree.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, gitBuffer } from './core.js';
import { writeCommit, type CommitSigner } from './commitObject.js';
import type { Signature } from './signature.js';
import { writeBlob } from './treeEdit.js';
import { zeroIdLike } from './commit.js';

export interface TreeFile {
  /** The path as a binary string. */
  path: string;
  /** 100644, 100755, 120000 (symbolic link) or 160000 (submodule). */
  mode: string;
  /** The blob, or a submodule's commit. */
  id: string;
  /** The blob's size in bytes (0 for a submodule). */
  size: number;
}

/** Every file of `rev`'s tree, recursively. */
export async function listTreeFiles(dir: string, rev: string): Promise<TreeFile[]> {
  const out = (await gitBuffer(dir, ['ls-tree', '-r', '-z', '--long', '--full-tree', rev])).toString('latin1');
  return out.split('\0').filter(Boolean).map((line) => {
    const tab = line.indexOf('\t');
    const [mode, , id, size] = line.slice(0, tab).split(/\s+/);
    return { mode: mode!, id: id!, size: size === '-' ? 0 : Number(size), path: line.slice(tab + 1) };
  });
}

/** A blob's bytes as a binary string. */
export async function readBlobBinary(dir: string, id: string): Promise<string> {
  return (await gitBuffer(dir, ['cat-file', 'blob', id])).toString('latin1');
}

export interface FirstCommitFile {
  path: string;
  mode: string;
  /** An object of the source repository (a blob, or a submodule's commit, which is not copied). */
  id: string;
  /** New content (a binary string) instead of `id`'s. */
  content?: string;
}

/**
 * Writes `files` as the only commit of `branch` in the new repository `dir` (which must not have the
 * branch yet), copying the blobs it needs from `source`. Answers the commit's id.
 */
export async function writeFirstCommit(
  source: string, dir: string, files: FirstCommitFile[], opts: { branch: string; message: string; author: Signature; sign?: CommitSigner },
): Promise<string> {
  const copied = [...new Set(files.filter((f) => f.content === undefined && f.mode !== '160000').map((f) => f.id))];
  if (copied.length) {
    const pack = await gitBuffer(source, ['pack-objects', '--stdout', '-q'], { stdin: `${copied.join('\n')}\n` });
    await git(dir, ['index-pack', '--stdin'], { stdin: pack });
  }
  const lines: string[] = [];
  for (const f of files) {
    const id = f.content === undefined ? f.id : await writeBlob(dir, Buffer.from(f.content, 'latin1'));
    lines.push(`${f.mode} ${id}\t${f.path}\0`);
  }
  const tmp = mkdtempSync(join(tmpdir(), 'anvil-template-'));
  const env = { GIT_INDEX_FILE: join(tmp, 'index') };
  try {
    await git(dir, ['read-tree', '--empty'], { env });
    if (lines.length) await git(dir, ['update-index', '-z', '--index-info'], { env, stdin: Buffer.from(lines.join(''), 'latin1') });
    const { stdout: tree } = await git(dir, ['write-tree'], { env });
    const id = await writeCommit(dir, { tree: tree.trim(), parents: [], author: opts.author, committer: opts.author, message: opts.message, sign: opts.sign });
    await git(dir, ['update-ref', '-m', 'anvil', `refs/heads/${opts.branch}`, id, zeroIdLike(id)]);
    return id;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The commit `branch` points at, or undefined when there is no such branch. */
export async function branchHead(dir: string, branch: string): Promise<string | undefined> {
  const { stdout, exitCode } = await git(dir, ['rev-parse', '--verify', '-q', `refs/heads/${branch}^{commit}`], { okCodes: [1] });
  return exitCode === 0 ? stdout.trim() : undefined;
}
