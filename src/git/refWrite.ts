// Creating or moving one branch or tag by git's own protocol for its "files" ref store, without starting
// a git process (create branch, diffpatch, file changes, merges and tags each moved a ref with a
// `git update-ref` of its own): take `<ref>.lock` with O_EXCL (the lock every git writer takes, so a
// concurrent push or update-ref waits on us or fails, and we on them), check the ref's value under the
// lock (loose file, then packed-refs), write the new value into the lock file and rename it over the ref.
//
// Only the plain case is handled here; anything else answers undefined and the caller runs git, which
// knows the rest: a reftable store, a symbolic or malformed ref, a repository that keeps reflogs (the
// `core.logAllRefUpdates` setting, or a log already kept for this ref), a `reference-transaction` hook.
// Like git by default, the ref file is not fsynced: the rename is atomic, so a killed process leaves the
// old value or the new one, never a torn file (a stale `.lock` is what git leaves too).
//
// The file calls are synchronous: each touches one small file of a local folder (microseconds), where a
// round trip through libuv's thread pool costs more than the call, and the lock is held for less time.
// packed-refs is read (as git does) only to check the old value and path collisions.
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GitError } from './core.js';
import { filesStore, isPlainRefName, looseValue, readPacked, Unsure } from './refFiles.js';

const oid = /^([0-9a-f]{40}|[0-9a-f]{64})$/;
const isZero = (id: string) => /^0+$/.test(id);

/** The failure git's update-ref reports for the same case; callers treat it as "the ref moved". */
function refused(ref: string, why: string): GitError {
  return new GitError(['update-ref', ref], 1, `fatal: cannot lock ref '${ref}': ${why}`);
}

function readSmall(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Whether git would do more than write the ref file: keep a reflog, or run a reference-transaction hook. */
function needsGit(dir: string, ref: string): boolean {
  const config = readSmall(join(dir, 'config')) ?? '';
  if (/logallrefupdates/i.test(config) || /^\s*\[\s*include/im.test(config)) return true;
  return existsSync(join(dir, 'logs', ref)) || existsSync(join(dir, 'hooks', 'reference-transaction'));
}

/**
 * Sets `ref` to `target` if it is now `expected` (all zeros: if it does not exist). Throws GitError when
 * the ref is not at `expected`, is locked by another writer, or collides with another ref's path (a/b
 * against a), as `git update-ref` fails; answers false, having changed nothing, when git must do it.
 */
export async function writeRefFile(dir: string, ref: string, target: string, expected: string): Promise<boolean> {
  if (!isPlainRefName(ref) || !oid.test(target) || isZero(target) || !oid.test(expected) || !filesStore(dir)) return false;
  if (needsGit(dir, ref)) return false;
  const path = join(dir, ref);
  const lock = `${path}.lock`;
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'EEXIST') throw refused(ref, 'a ref of a shorter name exists');
    throw err;
  }
  let fd: number | undefined;
  try {
    fd = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw refused(ref, `Unable to create '${lock}': File exists`);
    if (code === 'ENOTDIR') throw refused(ref, 'a ref of a shorter name exists');
    throw err;
  }
  let renamed = false;
  try {
    let current: string | null;
    let packed: Map<string, string>;
    try {
      let loose: string | undefined;
      try {
        loose = readSmall(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EISDIR') throw refused(ref, 'refs exist below this name');
        throw err;
      }
      packed = readPacked(dir);
      current = loose !== undefined ? looseValue(loose) : (packed.get(ref) ?? null);
    } catch (err) {
      if (err instanceof Unsure) return false;
      throw err;
    }
    if (isZero(expected) ? current !== null : current !== expected) {
      throw refused(ref, current === null ? 'the ref does not exist' : isZero(expected) ? 'reference already exists' : `is at ${current} but expected ${expected}`);
    }
    // A packed ref above or below this name would make the two collide as paths once unpacked.
    for (const other of packed.keys()) {
      if (other.startsWith(`${ref}/`) || ref.startsWith(`${other}/`)) throw refused(ref, `'${other}' exists`);
    }
    writeSync(fd, `${target}\n`);
    closeSync(fd);
    fd = undefined;
    try {
      renameSync(lock, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EISDIR') throw refused(ref, 'refs exist below this name');
      throw err;
    }
    renamed = true;
    return true;
  } finally {
    if (fd !== undefined) closeSync(fd);
    if (!renamed) {
      try {
        unlinkSync(lock);
      } catch {
        // already gone
      }
    }
  }
}
