// The git-hook operations (…/hooks/git[/{id}]): anvil runs no custom git hooks, so each answers as Gitea with
// DISABLE_GIT_HOOKS (its default): 403 for repository and site administrators, 403 for other readers, 404 for
// those who cannot see the repository, 401 anonymous. One matrix, run by each operation's test file.
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';
import type { OperationId } from '../../src/api/types.js';
import { assertSpecAnswer } from './spec-check.js';
import { tagWorld } from './tags.js';

type Call = (path: { owner: string; repo: string }, auth?: string) => Promise<{ status: number; body: string }>;

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
  const outsider = await call(w.privPath, w.r.outsider.auth);
  assert.is(outsider.status, 404, 'an outsider on a private repository');
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
