// The one place that runs git: dugite with argument arrays (never a shell string), a fixed
// environment, and declared exit codes. dugite's bundled git is used when installed; otherwise
// (its download is denied in package.json) the system git, found on PATH.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { exec, spawn, type IGitExecutionOptions } from 'dugite';
import { resolveEmbeddedGitDir } from 'dugite/build/lib/git-environment.js';

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(`git ${args[0]} failed (${exitCode}): ${stderr.trim().split('\n').slice(-3).join(' ')}`);
  }
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

export async function git(cwd: string, args: string[], opts: GitOptions = {}): Promise<GitResult> {
  const options: IGitExecutionOptions = {
    env: { ...gitEnvironment(), ...opts.env },
    stdin: opts.stdin,
    maxBuffer: 256 * 1024 * 1024,
    signal: opts.signal,
  };
  const r = await exec(args, cwd, options);
  const result = { stdout: String(r.stdout), stderr: String(r.stderr), exitCode: r.exitCode };
  if (result.exitCode !== 0 && !(opts.okCodes ?? []).includes(result.exitCode)) {
    throw new GitError(args, result.exitCode, result.stderr);
  }
  return result;
}

/** Like git(), but stdout as bytes (blobs). */
export async function gitBuffer(cwd: string, args: string[], opts: GitOptions = {}): Promise<Buffer> {
  const r = await exec(args, cwd, {
    env: { ...gitEnvironment(), ...opts.env },
    stdin: opts.stdin,
    encoding: 'buffer',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.exitCode !== 0) throw new GitError(args, r.exitCode, r.stderr.toString('utf8'));
  return r.stdout;
}

/**
 * Starts git with its standard streams left to the caller, for output too large to buffer (packs).
 * The caller owns the process: it must consume stdout and end stdin.
 */
export function gitSpawn(cwd: string, args: string[], opts: { env?: Record<string, string> } = {}): ChildProcessWithoutNullStreams {
  return spawn(args, cwd, { env: { ...gitEnvironment(), ...opts.env } });
}
