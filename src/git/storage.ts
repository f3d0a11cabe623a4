// Failures of the disk under the repositories (read-only, not permitted, full, broken), told apart from
// git refusing what it was asked: a client cannot cause them and must not be told it sent something wrong,
// nor be shown git's or the operating system's text (paths, internals). api/errors.ts answers them.

export type StorageProblem = 'unwritable' | 'full';

/** Thrown by src/git/core.ts instead of a GitError when git failed because of the storage, not the request. */
export class StorageFailure extends Error {
  constructor(
    readonly problem: StorageProblem,
    readonly args: string[],
    readonly stderr: string,
  ) {
    super(`git ${args[0]} failed on the repository storage (${problem}): ${stderr.trim().split('\n').slice(-3).join(' ')}`);
  }
}

const errnoProblems: Record<string, StorageProblem> = {
  EROFS: 'unwritable', EACCES: 'unwritable', EPERM: 'unwritable', EIO: 'unwritable', ENOSPC: 'full', EDQUOT: 'full',
};

// What git prints when a file system call fails. "Permission denied" only as an operating-system message
// after a path, not ssh's "Permission denied (publickey)" from a remote.
const fullText = /No space left on device|Disk quota exceeded/i;
const unwritableText = new RegExp([
  'Read-only file system', 'Operation not permitted', ': Permission denied(?! \\()', 'Input/output error',
  'unable to create temporary file', 'insufficient permission for adding an object', 'unable to create backing store',
  'unable to write (?:new index file|loose object file|file)', 'failed to write object',
].join('|'), 'i');

/** The storage problem git's error output names, if any. */
export function storageProblemInGitOutput(stderr: string): StorageProblem | undefined {
  if (fullText.test(stderr)) return 'full';
  if (unwritableText.test(stderr)) return 'unwritable';
  return undefined;
}

/** The storage problem behind `err`: a StorageFailure from git, or a file system call's error code. */
export function storageProblemOf(err: unknown): StorageProblem | undefined {
  if (err instanceof StorageFailure) return err.problem;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && Object.hasOwn(errnoProblems, code) && typeof (err as { syscall?: unknown }).syscall === 'string'
    ? errnoProblems[code]
    : undefined;
}
