// Fixtures for the git-backed repository operations (branches, tags, diff patches, contents): one user
// per role on a user's repository, and the real `git` CLI to put content into, or read it back from,
// the bare repository on disk (`$DATA_DIR/repositories/<owner>/<name>.git`).
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';
import { runProgram } from './spawnGit.js';
import {
  actor, addCollaborator, pathOf, repoFolder, siteAdmin, userRepo, type Actor, type CreateRepoOption, type Repository,
} from './repos.js';

/** The callers that matter to a repository operation; `owner` owns the repositories made by `repoFor`. */
export interface Roles {
  owner: Actor;
  writer: Actor;
  reader: Actor;
  outsider: Actor;
  admin: Actor;
}

export async function roles(app: TestApp): Promise<Roles> {
  const [owner, writer, reader, outsider] = await Promise.all([actor(app), actor(app), actor(app), actor(app)]);
  return { owner: owner!, writer: writer!, reader: reader!, outsider: outsider!, admin: await siteAdmin(app) };
}

/** A repository of `r.owner` (auto-initialised unless told otherwise) with `r.writer` and `r.reader` as collaborators. */
export async function repoFor(app: TestApp, r: Roles, body: Partial<CreateRepoOption> = {}): Promise<Repository> {
  const repo = await userRepo(app, r.owner, { auto_init: true, ...body });
  await addCollaborator(app, repo, r.writer, 'write');
  await addCollaborator(app, repo, r.reader, 'read');
  return repo;
}

/** PATCH /repos/{owner}/{repo} {archived} as the owner (repoEdit has tests of its own). */
export async function setArchived(app: TestApp, repo: Repository, by: Actor, archived = true): Promise<void> {
  const res = await app.client(by.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(repo) }, body: { archived } });
  assert.is(res.response.status, 200, `archive: ${JSON.stringify(res.error)}`);
}

/** A token of `user` whose scopes miss the repository category (or, for `write`, only read it). */
export function wrongScope(app: TestApp, user: Actor, write: boolean): Promise<string> {
  return app.token(user, write ? ['read:repository', 'write:issue'] : ['read:user', 'write:issue']);
}

export const dirOf = (app: TestApp, repo: Repository) => {
  const { owner, repo: name } = pathOf(repo);
  return repoFolder(app, owner, name);
};

export const identity = { name: 'Fixture Person', email: 'fixture@example.com' };

const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
  GIT_AUTHOR_NAME: identity.name,
  GIT_AUTHOR_EMAIL: identity.email,
  GIT_COMMITTER_NAME: identity.name,
  GIT_COMMITTER_EMAIL: identity.email,
};

/** Runs the system `git` with an argument array (and optional stdin); answers stdout. Blocks: see `disk`. */
export function gitRun(cwd: string, args: string[], opts: { input?: string | Buffer; env?: Record<string, string> } = {}): string {
  return execFileSync('git', args, { cwd, env: { ...env, ...opts.env }, input: opts.input ?? '', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Like gitRun, stdout as bytes. */
export function gitBytes(cwd: string, args: string[]): Buffer {
  return execFileSync('git', args, { cwd, env, input: '', maxBuffer: 64 * 1024 * 1024 });
}

/** The object `rev` names in `dir`, or undefined. */
export function revOf(dir: string, rev: string): string | undefined {
  try {
    return gitRun(dir, ['rev-parse', '--verify', '--quiet', rev]).trim() || undefined;
  } catch {
    return undefined;
  }
}

export const tipOf = (dir: string, branch: string) => revOf(dir, `refs/heads/${branch}`);

/** A file's content, a symbolic link, a submodule (gitlink to a commit id), or null to remove the path. */
export type FileSpec = string | Buffer | { symlink: string } | { gitlink: string } | null;

interface CommitOpts {
  message?: string;
  from?: string;
  date?: Date;
}

type Runner = (cwd: string, args: string[], opts?: { input?: string | Buffer; env?: Record<string, string> }) => string;

/** The git commands of a commit, in order: each yielded step is run (sync or async) and its stdout sent back. */
function* commitSteps(dir: string, branch: string, files: Record<string, FileSpec>, opts: CommitOpts, idx: Record<string, string>):
  Generator<Parameters<Runner>, string, string> {
  const rev = function* (r: string): Generator<Parameters<Runner>, string | undefined, string> {
    const out = (yield [dir, ['rev-parse', '--verify', '--quiet', r]]).trim();
    return out || undefined;
  };
  const parent = (yield* rev(`refs/heads/${branch}`)) ?? (opts.from ? yield* rev(`${opts.from}^{commit}`) : undefined);
  yield [dir, parent ? ['read-tree', parent] : ['read-tree', '--empty'], { env: idx }];
  for (const [path, content] of Object.entries(files)) {
    if (content === null) {
      // `--force-remove` wants a work tree; an index-info line with mode 0 removes the entry without one.
      yield [dir, ['update-index', '--index-info'], { env: idx, input: `0 ${'0'.repeat(parent?.length ?? 40)}\t${path}\n` }];
      continue;
    }
    if (typeof content === 'object' && 'gitlink' in content) {
      yield [dir, ['update-index', '--add', '--cacheinfo', `160000,${content.gitlink},${path}`], { env: idx }];
      continue;
    }
    const link = typeof content === 'object' && 'symlink' in content;
    const blob = (yield [dir, ['hash-object', '-w', '--stdin'], { input: link ? content.symlink : content }]).trim();
    yield [dir, ['update-index', '--add', '--cacheinfo', `${link ? '120000' : '100644'},${blob},${path}`], { env: idx }];
  }
  const tree = (yield [dir, ['write-tree'], { env: idx }]).trim();
  const stamp = opts.date ? `${Math.floor(opts.date.getTime() / 1000)} +0000` : undefined;
  const when: Record<string, string> = stamp ? { GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp } : {};
  const commit = (yield [dir, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], {
    input: opts.message ?? `change ${Object.keys(files).join(', ')}\n`,
    env: when,
  }]).trim();
  yield [dir, ['update-ref', `refs/heads/${branch}`, commit]];
  return commit;
}

/** A failing `rev-parse --verify --quiet` step means "no such ref": the step answers ''. */
const quietRevParse = (args: string[]) => args[0] === 'rev-parse';

/**
 * Commits `files` (path → content; null removes the path) on top of `branch` (or of `from` when the
 * branch does not exist yet) with git plumbing, and moves the branch. Answers the new commit id. Blocks: see `disk`.
 */
export function commitTo(dir: string, branch: string, files: Record<string, FileSpec>, opts: CommitOpts = {}): string {
  const tmp = mkdtempSync(join(tmpdir(), 'anvil-fixture-'));
  try {
    const steps = commitSteps(dir, branch, files, opts, { GIT_INDEX_FILE: join(tmp, 'index') });
    let next = steps.next('');
    while (!next.done) {
      const [cwd, args, o] = next.value;
      let out: string;
      try {
        out = gitRun(cwd, args, o);
      } catch (err) {
        if (!quietRevParse(args)) throw err;
        out = '';
      }
      next = steps.next(out);
    }
    return next.value;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function commitAsync(dir: string, branch: string, files: Record<string, FileSpec>, opts: CommitOpts = {}): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'anvil-fixture-'));
  try {
    const steps = commitSteps(dir, branch, files, opts, { GIT_INDEX_FILE: join(tmp, 'index') });
    let next = steps.next('');
    while (!next.done) {
      const [cwd, args, o] = next.value;
      let out: string;
      try {
        out = (await runAsync(cwd, args, o)).toString('utf8');
      } catch (err) {
        if (!quietRevParse(args)) throw err;
        out = '';
      }
      next = steps.next(out);
    }
    return next.value;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The paths of every file at `rev`, sorted. */
export const filesAt = (dir: string, rev: string): string[] =>
  gitRun(dir, ['ls-tree', '-r', '-z', '--name-only', rev]).split('\0').filter(Boolean).sort();

/** The bytes of `path` at `rev`. */
export const fileAt = (dir: string, rev: string, path: string) => gitBytes(dir, ['cat-file', 'blob', `${rev}:${path}`]);

async function runAsync(cwd: string, args: string[], opts: { input?: string | Buffer; env?: Record<string, string> } = {}): Promise<Buffer> {
  const r = await runProgram('git', args, { cwd, env: { ...env, ...opts.env }, input: opts.input });
  if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString('utf8')}`);
  return r.stdout;
}

/**
 * The same helpers, asynchronous. Prefer these between requests: the server lives in this process, and
 * while a synchronous git call blocks the event loop its keep-alive timer can close a socket that the
 * next request is already writing to ("fetch failed" under load).
 */
export const disk = {
  run: (cwd: string, args: string[], opts: { input?: string | Buffer; env?: Record<string, string> } = {}) =>
    runAsync(cwd, args, opts).then((b) => b.toString('utf8')),
  bytes: (cwd: string, args: string[]) => runAsync(cwd, args),
  async rev(dir: string, rev: string): Promise<string | undefined> {
    try {
      return (await disk.run(dir, ['rev-parse', '--verify', '--quiet', rev])).trim() || undefined;
    } catch {
      return undefined;
    }
  },
  tip: (dir: string, branch: string) => disk.rev(dir, `refs/heads/${branch}`),
  commit: commitAsync,
  files: async (dir: string, rev: string) =>
    (await disk.run(dir, ['ls-tree', '-r', '-z', '--name-only', rev])).split('\0').filter(Boolean).sort(),
  file: (dir: string, rev: string, path: string) => runAsync(dir, ['cat-file', 'blob', `${rev}:${path}`]),
};

/** A GET with plain fetch (for answers that are not JSON, or paths the typed client would encode). */
export async function fetchRaw(app: TestApp, path: string, authorization?: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(`${app.url}/api/v1${path}`, { headers: authorization ? { Authorization: authorization } : {} });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A GET sent with the path exactly as given: fetch would resolve `..` segments before sending them. */
export function getVerbatim(app: TestApp, path: string, authorization?: string): Promise<{ status: number; body: string }> {
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: 'GET', path: `/api/v1${path}`, headers: authorization ? { Authorization: authorization } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
