// Unadopted repositories: bare git folders put straight into the repository root (no row), and the three
// admin calls on them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TestApp } from './harness.js';
import { repoFolder } from './repos.js';

const gitEnv = {
  ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C',
  GIT_AUTHOR_NAME: 'Folder Person', GIT_AUTHOR_EMAIL: 'folder@example.com', GIT_COMMITTER_NAME: 'Folder Person', GIT_COMMITTER_EMAIL: 'folder@example.com',
};
const git = (cwd: string, args: string[], input?: string) =>
  execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] }).trim();

/**
 * A bare repository at `<owner>/<name>.git` with no row: one commit on each of `branches`, HEAD naming
 * `head` (which need not exist). Answers the folder.
 */
export function makeFolder(app: TestApp, owner: string, name: string, opts: { branches?: string[]; head?: string } = {}): string {
  const dir = repoFolder(app, owner, name);
  mkdirSync(dirname(dir), { recursive: true });
  git(dirname(dir), ['init', '--bare', '--quiet', `--initial-branch=${opts.head ?? 'main'}`, dir]);
  const branches = opts.branches ?? [];
  if (branches.length) {
    const tree = git(dir, ['mktree'], '');
    const commit = git(dir, ['commit-tree', tree, '-m', 'from a folder']);
    for (const b of branches) git(dir, ['update-ref', `refs/heads/${b}`, commit]);
  }
  return dir;
}

export const folderExists = (app: TestApp, owner: string, name: string) => existsSync(repoFolder(app, owner, name));

export function listUnadopted(app: TestApp, auth: string | undefined, query: { pattern?: string; query?: string; page?: number; limit?: number } = {}) {
  return app.client(auth).GET('/admin/unadopted', { params: { query } });
}

export function adopt(app: TestApp, auth: string | undefined, owner: string, repo: string) {
  return app.client(auth).POST('/admin/unadopted/{owner}/{repo}', { params: { path: { owner, repo } } });
}

export function deleteUnadopted(app: TestApp, auth: string | undefined, owner: string, repo: string) {
  return app.client(auth).DELETE('/admin/unadopted/{owner}/{repo}', { params: { path: { owner, repo } } });
}
