// Repository upkeep for the cron tasks: a full consistency check and a garbage collection, each bounded
// in time (git is stopped when the time is up).
import { git, GitError } from './core.js';

export interface UpkeepResult {
  ok: boolean;
  /** What went wrong: git's last lines, or that the time ran out. */
  problem?: string;
}

async function bounded(dir: string, args: string[], timeoutMs: number): Promise<UpkeepResult> {
  try {
    await git(dir, args, { signal: AbortSignal.timeout(timeoutMs) });
    return { ok: true };
  } catch (err) {
    if (err instanceof GitError) return { ok: false, problem: err.stderr.trim().split('\n').slice(-3).join(' ') || `exit ${err.exitCode}` };
    if ((err as Error).name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR') {
      return { ok: false, problem: `stopped after ${Math.round(timeoutMs / 1000)} s` };
    }
    return { ok: false, problem: (err as Error).message };
  }
}

/** `git fsck`: every object reachable and intact (dangling objects are no failure). */
export const fsck = (dir: string, timeoutMs: number) => bounded(dir, ['fsck', '--no-progress', '--no-dangling'], timeoutMs);

/** `git gc`: loose objects packed, unreachable ones past git's grace period pruned. */
export const gc = (dir: string, timeoutMs: number) => bounded(dir, ['gc', '--quiet'], timeoutMs);

/**
 * `git gc --auto`: the upkeep git runs after a push when there is enough to do. anvil runs it after
 * recording the push instead of inside receive-pack (receive.autogc=false), because its pack-refs would
 * pass through the push's reference-transaction journal as updates of every ref.
 */
export const autoGc = (dir: string, timeoutMs: number) => bounded(dir, ['gc', '--auto', '--quiet'], timeoutMs);
