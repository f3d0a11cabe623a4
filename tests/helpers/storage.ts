// A repository folder that cannot be written, for tests of storage failures. Tests run as root here and in
// CI, where permission bits stop nothing: root makes the folder immutable (`chattr -R +i`, e2fsprogs);
// any other user takes the write bits away. Where neither works (a file system without the immutable
// flag, no chattr) the tests are skipped with a printed reason, and fail in CI (`CI=true`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';

const asRoot = process.getuid?.() === 0;

function run(cmd: string, args: string[]): void {
  execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Whether a file can be created in `dir` now. */
function writable(dir: string): boolean {
  const probe = join(dir, `.probe-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe);
    return true;
  } catch {
    return false;
  }
}

/** Makes `dir` and everything in it unwritable; answers the undo. Throws with the reason when it cannot. */
export function freeze(dir: string): () => void {
  const undo = asRoot ? () => run('chattr', ['-R', '-i', dir]) : () => run('chmod', ['-R', 'u+w', dir]);
  try {
    if (asRoot) run('chattr', ['-R', '+i', dir]);
    else run('chmod', ['-R', 'a-w', dir]);
  } catch (err) {
    try {
      undo();
    } catch {
      // nothing was frozen
    }
    throw new Error(`cannot make ${dir} unwritable: ${asRoot ? 'chattr -R +i' : 'chmod -R a-w'} failed: ${(err as Error).message}`);
  }
  if (writable(dir)) {
    undo();
    throw new Error(`cannot make ${dir} unwritable: the file system ignores ${asRoot ? 'the immutable flag' : 'permission bits'}`);
  }
  return undo;
}

/**
 * Whether freezing works here, tried once on a scratch folder: true, or false after printing why (the
 * caller's tests are then skipped) — in CI (`CI=true`) the reason fails the test instead.
 */
export function canFreeze(file: string): boolean {
  const scratch = mkdtempSync(join(tmpdir(), 'anvil-freeze-'));
  try {
    freeze(scratch)();
    return true;
  } catch (err) {
    const reason = (err as Error).message;
    if (process.env.CI === 'true') {
      assert.unreachable(`${reason}; as root, .ci/run installs e2fsprogs for chattr, and the data folder must be on a file system with the immutable flag (ext4, xfs, btrfs, tmpfs)`);
    }
    process.stdout.write(`${file}: skipped: ${reason}\n`);
    return false;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
