// The git-hook operations (…/hooks/git[/{id}]). Two matrices, run by each operation's test file:
// - gitHookMatrix, git hooks disabled (DISABLE_GIT_HOOKS, the default): 403 for repository and site
//   administrators ("must be allowed to edit Git hooks"), 403 for other readers, 404 for those who cannot see
//   the repository, 401 anonymous; nothing is written.
// - gitHookEnabledMatrix, an app started with DISABLE_GIT_HOOKS=false: the operation succeeds for a site
//   administrator and for a repository administrator given allow_git_hook (adminEditUser), and not for one
//   without it (403), nor the owner who is no site administrator; writers and readers 403 (Gitea's reqAdmin),
//   404 outsiders of a private repository, 401 anonymous; an unknown hook name is 404.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from './harness.js';
import type { OperationId } from '../../src/api/types.js';
import { assertSpecAnswer } from './spec-check.js';
import { tagWorld, type TagWorld } from './tags.js';

type Call = (path: { owner: string; repo: string }, auth?: string) => Promise<{ status: number; body: string }>;

/** An app whose site enables git hooks (DISABLE_GIT_HOOKS=false). */
export const startHooksApp = () => startApp({ DISABLE_GIT_HOOKS: 'false' });

/** The hook files of the repository in `dir` that exist (hooks/<name>.d/<name>). */
export const hookFilesIn = (dir: string) =>
  ['pre-receive', 'update', 'post-receive'].filter((name) => existsSync(join(dir, 'hooks', `${name}.d`, name)));

export async function gitHookMatrix(app: TestApp, operationId: OperationId, call: Call): Promise<void> {
  const w = await tagWorld(app);
  for (const [who, auth, status] of [
    ['owner', w.r.owner.auth, 403], ['repository admin', w.r.repoAdmin.auth, 403], ['site admin', w.r.admin.auth, 403],
    ['writer', w.r.writer.auth, 403], ['reader', w.r.reader.auth, 403], ['anonymous', undefined, 401],
  ] as const) {
    const res = await call(w.path, auth);
    assert.is(res.status, status, `${operationId} as ${who}: ${res.body}`);
    if (status === 403) {
      const expected = who.endsWith('admin') || who === 'owner' ? 'must be allowed to edit Git hooks' : 'admin';
      assert.match(JSON.parse(res.body).message, expected, who);
    }
    assertSpecAnswer(operationId, res.status, res.body ? JSON.parse(res.body) : undefined);
  }
  // A user given allow_git_hook is refused as well while the site disables git hooks.
  await allowGitHook(app, w, w.r.repoAdmin.username);
  const allowed = await call(w.path, w.r.repoAdmin.auth);
  assert.is(allowed.status, 403, 'allow_git_hook does not enable what the site disables');
  const outsider = await call(w.privPath, w.r.outsider.auth);
  assert.is(outsider.status, 404, 'an outsider on a private repository');
  assert.equal(hookFilesIn(w.dir), [], 'no hook file was written');
}

export async function gitHookEnabledMatrix(app: TestApp, operationId: OperationId, success: number, call: Call): Promise<TagWorld> {
  const w = await tagWorld(app);
  for (const [who, auth, status, message] of [
    ['owner (no site administrator)', w.r.owner.auth, 403, 'must be allowed to edit Git hooks'],
    ['repository admin without allow_git_hook', w.r.repoAdmin.auth, 403, 'must be allowed to edit Git hooks'],
    ['writer', w.r.writer.auth, 403, 'admin'], ['reader', w.r.reader.auth, 403, 'admin'], ['anonymous', undefined, 401, ''],
    ['site admin', w.r.admin.auth, success, ''],
  ] as const) {
    const res = await call(w.path, auth);
    assert.is(res.status, status, `${operationId} as ${who}: ${res.body}`);
    if (message) assert.match(JSON.parse(res.body).message, message, who);
    assertSpecAnswer(operationId, res.status, res.body ? JSON.parse(res.body) : undefined);
  }
  // allow_git_hook makes a repository administrator able to; it makes a writer no administrator.
  await allowGitHook(app, w, w.r.repoAdmin.username);
  await allowGitHook(app, w, w.r.writer.username);
  assert.is((await call(w.path, w.r.repoAdmin.auth)).status, success, 'a repository admin with allow_git_hook');
  assert.is((await call(w.path, w.r.writer.auth)).status, 403, 'a writer with allow_git_hook is no repository admin');
  assert.is((await call(w.privPath, w.r.outsider.auth)).status, 404, 'an outsider on a private repository');
  return w;
}

async function allowGitHook(app: TestApp, w: TagWorld, username: string): Promise<void> {
  const res = await app.client(w.r.admin.auth).PATCH('/admin/users/{username}', { params: { path: { username } }, body: { allow_git_hook: true } });
  assert.is(res.response.status, 200, `allow_git_hook: ${JSON.stringify(res.error)}`);
}

/** A raw request to the git-hook paths, so that the path is sent as written (never `hooks/{id}`). */
export async function gitHookCall(app: TestApp, method: string, tail: string, path: { owner: string; repo: string }, auth?: string, body?: unknown) {
  const res = await fetch(`${app.url}/api/v1/repos/${path.owner}/${path.repo}/hooks/git${tail}`, {
    method,
    headers: { ...(auth ? { Authorization: auth } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.text() };
}
