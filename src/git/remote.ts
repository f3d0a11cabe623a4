// Talking git to another server over HTTP(S) (migrations and pull mirrors, #39). The caller has already
// decided which address the host may be reached at: git is pinned to it (http.curloptResolve), so a DNS
// answer cannot change in between. Credentials travel in the environment (GIT_CONFIG_*), never in the
// arguments or the URL, so no process listing or error text shows them.
import { git, GitError } from './core.js';

export interface RemoteAccess {
  /** `host:port:address` pins for curl (http.curloptResolve). */
  resolve?: string;
  /** The Authorization header's value, if the remote needs one. */
  authorization?: string;
  /** Stops git when it fires. */
  signal?: AbortSignal;
}

function remoteEnv(access: RemoteAccess): Record<string, string> {
  const pairs: Array<[string, string]> = [['http.followRedirects', 'false'], ['protocol.allow', 'never'], ['protocol.http.allow', 'always'], ['protocol.https.allow', 'always']];
  if (access.resolve) pairs.push(['http.curloptResolve', access.resolve]);
  if (access.authorization) pairs.push(['http.extraHeader', `Authorization: ${access.authorization}`]);
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length), GIT_HTTP_LOW_SPEED_LIMIT: '1', GIT_HTTP_LOW_SPEED_TIME: '60' };
  pairs.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}

/** What git said went wrong, with any URL's user information removed. */
export function remoteFailure(err: unknown): string {
  const text = err instanceof GitError ? err.stderr : err instanceof Error ? err.message : String(err);
  const line = text.split('\n').map((l) => l.trim()).filter(Boolean).find((l) => /^(fatal|error):/.test(l)) ?? text.trim().split('\n').pop() ?? '';
  return line.replace(/\/\/[^/@\s]*@/g, '//').slice(0, 500);
}

/** The remote's default branch (what its HEAD names), or undefined when it has none (an empty repository). */
export async function remoteHead(dir: string, url: string, access: RemoteAccess): Promise<string | undefined> {
  const { stdout } = await git(dir, ['ls-remote', '--symref', '--', url, 'HEAD'], { env: remoteEnv(access), signal: access.signal });
  const m = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(stdout);
  return m?.[1];
}

/**
 * Fetches `refspecs` from `url` into the bare repository `dir` (no FETCH_HEAD, no gc). `prune` removes
 * local refs under the refspecs' destinations that the remote no longer has.
 */
export async function fetchRemote(dir: string, url: string, refspecs: string[], access: RemoteAccess, opts: { prune?: boolean } = {}): Promise<void> {
  await git(dir, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-auto-gc', ...(opts.prune ? ['--prune'] : []), '--', url, ...refspecs], {
    env: remoteEnv(access), signal: access.signal,
  });
}

/** Whether `url` answers as a git repository (for optional parts such as a wiki). */
export async function remoteExists(dir: string, url: string, access: RemoteAccess): Promise<boolean> {
  const r = await git(dir, ['ls-remote', '--', url, 'HEAD'], { env: remoteEnv(access), signal: access.signal, okCodes: [128] });
  return r.exitCode === 0;
}

/**
 * Pushes the branches and tags of the bare repository `dir` to `url` as a mirror (push mirrors, #39):
 * forced, and removing the remote's branches and tags the repository no longer has.
 */
export async function pushMirror(dir: string, url: string, access: RemoteAccess): Promise<void> {
  await git(dir, ['push', '--quiet', '--force', '--prune', '--no-verify', '--', url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], {
    env: remoteEnv(access), signal: access.signal,
  });
}
