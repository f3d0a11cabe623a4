// Git LFS in tests: Debian's `git-lfs` driven through git with a global config of its own (the LFS
// filters, no user config), the LFS server's HTTP API, and random binaries with their oid.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestApp } from './harness.js';

const run = promisify(execFile);

/** A folder with a git config that turns git-lfs on; answers it and the environment to run git with. */
export function lfsHome(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'anvil-lfs-'));
  const config = join(dir, 'gitconfig');
  writeFileSync(config, [
    '[filter "lfs"]',
    '\tclean = git-lfs clean -- %f',
    '\tsmudge = git-lfs smudge -- %f',
    '\tprocess = git-lfs filter-process',
    '\trequired = true',
    '[init]',
    '\tdefaultBranch = main',
    '[lfs]',
    '\tlocksverify = true',
    '',
  ].join('\n'));
  const env = {
    ...process.env,
    HOME: dir,
    GIT_CONFIG_GLOBAL: config,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    GIT_AUTHOR_NAME: 'Tester', GIT_AUTHOR_EMAIL: 'tester@example.com', GIT_COMMITTER_NAME: 'Tester', GIT_COMMITTER_EMAIL: 'tester@example.com',
  };
  return { dir, env };
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs git (and git-lfs through it) with `env`; never throws. */
export async function gitLfs(env: NodeJS.ProcessEnv, cwd: string, args: string[]): Promise<Ran> {
  try {
    const r = await run('git', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The clone URL of a repository over HTTP with `user`'s credentials in it. */
export const httpRemote = (app: TestApp, user: { username: string; password: string }, fullName: string) =>
  `${app.url.replace('http://', `http://${encodeURIComponent(user.username)}:${encodeURIComponent(user.password)}@`)}/${fullName}.git`;

/** `n` random bytes in a file, with their LFS oid. */
export function binary(dir: string, name: string, n: number): { path: string; oid: string; size: number } {
  const bytes = randomBytes(n);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, oid: createHash('sha256').update(bytes).digest('hex'), size: n };
}

/** Bytes and their oid. */
export function object(content: Buffer | string): { content: Buffer; oid: string; size: number } {
  const bytes = Buffer.from(content);
  return { content: bytes, oid: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}

/** A request to the LFS server of `fullName` (`/owner/repo.git/info/lfs` + `path`). */
export async function lfsApi(
  app: TestApp, fullName: string, method: string, path: string, opts: { auth?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: any; headers: Headers; bytes: Buffer }> {
  const headers: Record<string, string> = { Accept: 'application/vnd.git-lfs+json', ...(opts.headers ?? {}) };
  if (opts.auth) headers.Authorization = opts.auth;
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/vnd.git-lfs+json';
    body = JSON.stringify(opts.json);
  } else if (opts.body) body = new Uint8Array(opts.body);
  const res = await fetch(`${app.url}/${fullName}.git/info/lfs${path}`, { method, headers, body, redirect: 'manual' });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: res.status, json, headers: res.headers, bytes };
}

/** Uploads `obj` through the batch API and the upload action, as git-lfs would; answers the PUT's status. */
export async function uploadObject(app: TestApp, fullName: string, auth: string, obj: { content: Buffer; oid: string; size: number }): Promise<number> {
  const batch = await lfsApi(app, fullName, 'POST', '/objects/batch', { auth, json: { operation: 'upload', transfers: ['basic'], objects: [{ oid: obj.oid, size: obj.size }] } });
  if (batch.status !== 200) return batch.status;
  const action = batch.json.objects[0].actions?.upload;
  if (!action) return 200;
  const res = await fetch(action.href, { method: 'PUT', headers: action.header, body: new Uint8Array(obj.content) });
  await res.arrayBuffer();
  return res.status;
}

/** The pointer file git-lfs commits in place of `obj`. */
export const pointerOf = (obj: { oid: string; size: number }) => `version https://git-lfs.github.com/spec/v1\noid sha256:${obj.oid}\nsize ${obj.size}\n`;

/**
 * Random binaries (`name` → bytes) committed as Git LFS files (`*.bin` tracked) to `main` of `fullName`
 * and pushed with git-lfs as `user`; answers each file's path, oid and size.
 */
export async function pushLfsFiles(
  app: TestApp, user: { username: string; password: string }, fullName: string, files: Record<string, number>, home = lfsHome(),
): Promise<Record<string, { path: string; oid: string; size: number }>> {
  const work = mkdtempSync(join(home.dir, 'work-'));
  const cloned = await gitLfs(home.env, home.dir, ['clone', '-q', httpRemote(app, user, fullName), work]);
  if (cloned.code !== 0) throw new Error(`clone: ${cloned.stderr}`);
  await gitLfs(home.env, work, ['lfs', 'track', '*.bin']);
  const out: Record<string, { path: string; oid: string; size: number }> = {};
  for (const [name, size] of Object.entries(files)) out[name] = binary(work, name, size);
  await gitLfs(home.env, work, ['add', '.gitattributes', ...Object.keys(files)]);
  await gitLfs(home.env, work, ['commit', '-q', '-m', `LFS files ${Object.keys(files).join(', ')}`]);
  const push = await gitLfs(home.env, work, ['push', 'origin', 'HEAD:main']);
  if (push.code !== 0) throw new Error(`git lfs push: ${push.stderr}`);
  return out;
}
