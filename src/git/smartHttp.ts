// The two programs behind git's smart HTTP transport, upload-pack (fetch, clone) and receive-pack
// (push), run as stateless RPC with input and output streamed: a pack never sits whole in memory.
import { PassThrough, type Readable } from 'node:stream';
import { GitError, gitSpawn } from './core.js';

export const gitServices = ['git-upload-pack', 'git-receive-pack'] as const;
export type GitService = (typeof gitServices)[number];

export const isGitService = (s: unknown): s is GitService => gitServices.includes(s as GitService);

/** Whether the client asked for protocol v2 (its `Git-Protocol` header, e.g. `version=2`). */
export const wantsProtocolV2 = (gitProtocol?: string) => (gitProtocol ?? '').split(':').includes('version=2');

export interface GitStreamOptions {
  /** The client's `Git-Protocol` header, handed to git as GIT_PROTOCOL. */
  gitProtocol?: string;
  /**
   * Runs once git has exited (whatever its exit code) and before the output ends, so a client that
   * has read the whole answer also sees what the caller records about it.
   */
  afterExit?: () => Promise<void>;
  /** Failures that cannot reach the client any more (the answer has begun): for the log. */
  onError?: (err: Error) => void;
  /** For receive-pack: the hooks folder git runs (core.hooksPath) and what their environment adds. */
  hooks?: { path: string; env: Record<string, string> };
}

const hookArgs = (opts: GitStreamOptions) => (opts.hooks ? ['-c', `core.hooksPath=${opts.hooks.path}`] : []);
const envOf = (opts: GitStreamOptions) => ({ ...protocolEnv(opts.gitProtocol), ...opts.hooks?.env });

// Only what git itself sends (`version=2`, `key=value` pairs joined by `:`) reaches the environment.
const protocolEnv = (gitProtocol?: string): Record<string, string> =>
  gitProtocol && /^[\w.=:-]{1,256}$/.test(gitProtocol) ? { GIT_PROTOCOL: gitProtocol } : {};

// Partial clones (`--filter`) are served, as Gitea does. receive-pack runs no `gc --auto` of its own:
// the caller runs it once the push is recorded (see git/maintenance.ts autoGc).
const serviceArgs = (service: GitService) => ['-c', 'uploadpack.allowFilter=true', '-c', 'receive.autogc=false', service.slice('git-'.length)];
const baseArgs = (service: GitService) => [...serviceArgs(service), '--stateless-rpc'];

const pktLine = (s: string) => (Buffer.byteLength(s) + 4).toString(16).padStart(4, '0') + s;

function run(dir: string, args: string[], input: Readable | undefined, opts: GitStreamOptions, preamble?: string): Readable {
  const child = gitSpawn(dir, [...hookArgs(opts), ...args], { env: envOf(opts) });
  const out = new PassThrough();
  if (preamble) out.write(preamble);
  child.stdout.pipe(out, { end: false });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 8192) stderr += d.toString('utf8');
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  // A client that goes away mid-answer leaves nobody to read: stop git.
  out.on('close', () => {
    if (!exited) child.kill();
  });
  if (input) {
    // Not pipeline(): git may stop reading early (a refused push) and must still be able to answer, so
    // the request is left open and drained rather than destroyed.
    input.on('error', (err) => {
      opts.onError?.(err);
      if (!exited) child.kill();
    });
    input.pipe(child.stdin);
    child.on('exit', () => {
      input.unpipe(child.stdin);
      input.resume();
    });
  } else {
    child.stdin.end();
  }
  // Once, whether git ended or could not be run at all (then 'close' may never come).
  let after: Promise<void> | undefined;
  const runAfter = () => (after ??= opts.afterExit ? opts.afterExit().catch((err: Error) => opts.onError?.(err)) : Promise.resolve());
  child.on('error', (err) => {
    exited = true;
    opts.onError?.(err);
    out.destroy(err);
    void runAfter();
  });
  child.on('close', (code) => {
    // git reports its own failures to the client in the protocol (ERR lines, unpack status): the
    // answer ends normally either way.
    if (code !== 0) opts.onError?.(new GitError(args, code ?? -1, stderr));
    void runAfter().then(() => {
      if (!out.destroyed) out.end();
    });
  });
  return out;
}

/**
 * The answer to `GET info/refs?service=…`: the refs and capabilities, after the `# service=` line and
 * a flush packet for protocol v0/v1 (a v2 advertisement stands alone).
 */
export function advertiseRefs(dir: string, service: GitService, opts: GitStreamOptions = {}): Readable {
  const preamble = wantsProtocolV2(opts.gitProtocol) ? undefined : `${pktLine(`# service=${service}\n`)}0000`;
  return run(dir, [...baseArgs(service), '--advertise-refs', '.'], undefined, opts, preamble);
}

/** The answer to `POST git-upload-pack` / `git-receive-pack`: `input` is the request body (decompressed). */
export function serviceRpc(dir: string, service: GitService, input: Readable, opts: GitStreamOptions = {}): Readable {
  return run(dir, [...baseArgs(service), '.'], input, opts);
}

/**
 * A whole upload-pack or receive-pack conversation over one full-duplex connection (git over SSH):
 * `input` feeds git, its output goes to `output` and its messages to `errors`. Resolves with git's exit
 * code once `afterExit` has run.
 */
export function servePack(
  dir: string,
  service: GitService,
  io: { input: Readable; output: NodeJS.WritableStream; errors: NodeJS.WritableStream },
  opts: GitStreamOptions = {},
): Promise<number> {
  const child = gitSpawn(dir, [...hookArgs(opts), ...serviceArgs(service), '.'], { env: envOf(opts) });
  child.stdout.pipe(io.output, { end: false });
  child.stderr.pipe(io.errors, { end: false });
  io.input.pipe(child.stdin);
  return new Promise((resolve) => {
    let settled = false;
    // A client gone mid-conversation: nobody reads git's output any more, so git is stopped rather than
    // left blocked on a full pipe; writing to the closed connection is no failure of the server.
    const gone = () => {
      if (!settled) child.kill();
    };
    io.input.on('close', gone);
    (io.output as unknown as NodeJS.EventEmitter).on('error', gone);
    (io.errors as unknown as NodeJS.EventEmitter).on('error', gone);
    const done = (code: number) => {
      if (settled) return;
      settled = true;
      io.input.unpipe(child.stdin);
      const after = opts.afterExit ? opts.afterExit().catch((err: Error) => opts.onError?.(err)) : Promise.resolve();
      void after.then(() => resolve(code));
    };
    child.on('error', (err) => {
      opts.onError?.(err);
      done(1);
    });
    child.on('close', (code) => done(code ?? 1));
  });
}
