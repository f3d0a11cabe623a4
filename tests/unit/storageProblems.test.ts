// Which failures are the repository storage's (src/git/storage.ts), answered 503/507 by api/errors.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { errorAnswer } from '../../src/api/errors.js';
import { StorageFailure, storageProblemInGitOutput, storageProblemOf } from '../../src/git/storage.js';

test("git's output: the file system's failures, not the request's", () => {
  const cases: Array<[string, string | undefined]> = [
    ['error: unable to create temporary file: Operation not permitted\nfatal: Unable to add (null) to database', 'unwritable'],
    ['error: unable to create temporary file: Read-only file system', 'unwritable'],
    ["fatal: cannot lock ref 'refs/heads/x': Unable to create '/d/refs/heads/x.lock': Permission denied", 'unwritable'],
    ['error: insufficient permission for adding an object to repository database ./objects', 'unwritable'],
    ['fatal: write error: No space left on device', 'full'],
    ['error: file write error: Disk quota exceeded', 'full'],
    ['error: patch failed: a.txt:1\nerror: a.txt: patch does not apply', undefined],
    ["fatal: cannot lock ref 'refs/heads/x': Unable to create '/d/refs/heads/x.lock': File exists.", undefined],
    ['git@example.com: Permission denied (publickey).\nfatal: Could not read from remote repository.', undefined],
  ];
  for (const [stderr, problem] of cases) assert.is(storageProblemInGitOutput(stderr), problem, stderr);
});

test('file system calls by their error code; answers 503 and 507 with no path or git text', () => {
  const fsError = (code: string) => Object.assign(new Error(`${code}: open '/data/repositories/a/b.git/refs/heads/x.lock'`), { code, syscall: 'open' });
  assert.is(storageProblemOf(fsError('EPERM')), 'unwritable');
  assert.is(storageProblemOf(fsError('EROFS')), 'unwritable');
  assert.is(storageProblemOf(fsError('ENOSPC')), 'full');
  assert.is(storageProblemOf(fsError('ENOENT')), undefined);
  assert.is(storageProblemOf(Object.assign(new Error('x'), { code: 'EPERM' })), undefined, 'a code without a system call is not the file system speaking');
  const unwritable = errorAnswer(fsError('EACCES'));
  assert.is(unwritable.status, 503);
  const full = errorAnswer(new StorageFailure('full', ['hash-object'], 'fatal: No space left on device'));
  assert.is(full.status, 507);
  for (const a of [unwritable, full]) {
    assert.ok(a.unexpected, 'logged for the operator');
    assert.not.match(a.message, /git|\/data|EACCES|space left/);
  }
});

test.run();
