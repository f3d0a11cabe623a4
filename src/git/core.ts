// The one place that runs git: argument arrays (never a shell string), a fixed environment (dugite's,
// which finds the git to run), and declared exit codes. dugite's bundled git is used when installed;
// otherwise (its download is denied in package.json) the system git, found on PATH. Every git process
// is started by the small helper process of ./spawner.ts, never by the server itself.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { resolveEmbeddedGitDir, setupEnvironment } from 'dugite/build/lib/git-environment.js';
import { spawnViaHelper, type GitChild } from './spawner.js';
import { gitDuration, gitVerb } from '../metrics.js';
import { StorageFailure, storageProblemInGitOutput } from './storage.js';

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(`git ${args[0]} failed (${exitCode}): ${stderr.trim().split('\n').slice(-3).join(' ')}`);
  }
}

/**
 * What a failed git run is: a StorageFailure when the disk under the repository failed it (so the callers
 * that read a GitError as "the request was wrong" — a patch that does not apply, a taken name — do not
 * misread it), a GitError otherwise.
 */
function failure(args: string[], exitCode: number, stderr: string): Error {
  const problem = storageProblemInGitOutput(stderr);
  return problem ? new StorageFailure(problem, args, stderr) : new GitError(args, exitCode, stderr);
}

function systemGit(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'git');
    try {
      accessSync(candidate, constants.X_OK);
      return realpathSync(candidate);
    } catch {
      // not here
    }
  }
  return undefined;
}

let baseEnv: Record<string, string> | undefined;

/** The environment every git call gets; computed once. */
export function gitEnvironment(): Record<string, string> {
  if (baseEnv) return baseEnv;
  const env: Record<string, string> = {
    // Server-side git must not read the host user's configuration or ask for credentials.
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
  };
  const embedded = join(resolveEmbeddedGitDir(), 'bin', 'git');
  if (!process.env.LOCAL_GIT_DIRECTORY && !existsSync(embedded)) {
    const bin = systemGit();
    if (!bin) throw new Error('git was not found: install git, or let dugite install its own');
    env.LOCAL_GIT_DIRECTORY = dirname(dirname(bin));
    env.GIT_EXEC_PATH = execFileSync(bin, ['--exec-path'], { encoding: 'utf8' }).trim();
  }
  baseEnv = env;
  return env;
}

export interface GitOptions {
  /** Extra environment (GIT_INDEX_FILE, author identity, ...). */
  env?: Record<string, string>;
  stdin?: string | Buffer;
  /** Exit codes that are answers rather than failures (e.g. 1 for "not found"). */
  okCodes?: number[];
  /** Stops git (SIGTERM) when it fires; the call then rejects. */
  signal?: AbortSignal;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** git with its environment, started by the helper. */
function start(cwd: string, args: string[], env?: Record<string, string>): GitChild {
  const { env: full, gitLocation } = setupEnvironment({ ...gitEnvironment(), ...env });
  // dugite's map (typed as a record) is iterable as [name, value] pairs; the helper needs a plain object.
  const plain = Symbol.iterator in full ? Object.fromEntries(full as unknown as Iterable<[string, string | undefined]>) : full;
  const started = process.hrtime.bigint();
  const child = spawnViaHelper({ file: gitLocation, args, cwd, env: plain });
  child.once('close', () => gitDuration.observe({ command: gitVerb(args) }, Number(process.hrtime.bigint() - started) / 1e9));
  return child;
}

const maxBuffer = 256 * 1024 * 1024;

/** Runs git to its end with its output buffered: the exit code whatever it is (a stop or a failure to start rejects). */
function runBuffered(cwd: string, args: string[], opts: GitOptions): Promise<{ stdout: Buffer; stderr: string; exitCode: number }> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(opts.signal.reason ?? new DOMException('The operation was aborted', 'AbortError'));
    const child = start(cwd, args, opts.env);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      opts.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => {
      child.kill();
      settle(() => reject(Object.assign(new Error(`git ${args[0]} was stopped`), { name: 'AbortError', code: 'ABORT_ERR' })));
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= maxBuffer) return void out.push(c);
      child.kill();
      settle(() => reject(new Error(`git ${args[0]}: output larger than ${maxBuffer} bytes`)));
    });
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e: Error) => settle(() => reject(e)));
    child.on('close', (code: number | null, signal: string | null) =>
      settle(() =>
        code === null
          ? reject(new GitError(args, -1, `${Buffer.concat(err).toString('utf8')}git was stopped (${signal ?? 'no exit status'})`))
          : resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), exitCode: code }),
      ),
    );
    // git gets end-of-input at once when there is nothing to give it.
    child.stdin.end(opts.stdin);
  });
}

export async function git(cwd: string, args: string[], opts: GitOptions = {}): Promise<GitResult> {
  const r = await runBuffered(cwd, args, opts);
  const result = { stdout: r.stdout.toString('utf8'), stderr: r.stderr, exitCode: r.exitCode };
  if (result.exitCode !== 0 && !(opts.okCodes ?? []).includes(result.exitCode)) throw failure(args, result.exitCode, result.stderr);
  return result;
}

/** Like git(), but stdout as bytes (blobs). */
export async function gitBuffer(cwd: string, args: string[], opts: GitOptions = {}): Promise<Buffer> {
  const r = await runBuffered(cwd, args, opts);
  if (r.exitCode !== 0) throw failure(args, r.exitCode, r.stderr);
  return r.stdout;
}

/**
 * Starts git with its standard streams left to the caller, for output too large to buffer (packs).
 * The caller owns the process: it must consume stdout and stderr and end stdin.
 */
export function gitSpawn(cwd: string, args: string[], opts: { env?: Record<string, string> } = {}): GitChild {
  return start(cwd, args, opts.env);
}
