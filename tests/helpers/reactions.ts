// Reactions to issues and comments (#38): the calls the six reaction operation tests share.
import * as assert from 'uvu/assert';
import { userBlocks } from '../../src/db/schema/index.js';
import type { TestApp } from './harness.js';
import type { Repo } from './issues.js';

type Auth = string | undefined;

export const issueReactions = {
  list: (app: TestApp, repo: Repo, index: number, auth?: Auth, query: { page?: number; limit?: number } = {}) =>
    app.client(auth).GET('/repos/{owner}/{repo}/issues/{index}/reactions', { params: { path: { ...repo.path, index }, query } }),
  post: (app: TestApp, repo: Repo, index: number, auth: Auth, content: string) =>
    app.client(auth).POST('/repos/{owner}/{repo}/issues/{index}/reactions', { params: { path: { ...repo.path, index } }, body: { content } }),
  delete: (app: TestApp, repo: Repo, index: number, auth: Auth, content: string) =>
    app.client(auth).DELETE('/repos/{owner}/{repo}/issues/{index}/reactions', { params: { path: { ...repo.path, index } }, body: { content } }),
};

export const commentReactions = {
  list: (app: TestApp, repo: Repo, id: number, auth?: Auth) =>
    app.client(auth).GET('/repos/{owner}/{repo}/issues/comments/{id}/reactions', { params: { path: { ...repo.path, id } } }),
  post: (app: TestApp, repo: Repo, id: number, auth: Auth, content: string) =>
    app.client(auth).POST('/repos/{owner}/{repo}/issues/comments/{id}/reactions', { params: { path: { ...repo.path, id } }, body: { content } }),
  delete: (app: TestApp, repo: Repo, id: number, auth: Auth, content: string) =>
    app.client(auth).DELETE('/repos/{owner}/{repo}/issues/comments/{id}/reactions', { params: { path: { ...repo.path, id } }, body: { content } }),
};

/** `(login, content)` pairs of a reaction list, in its order. */
export function reactionPairs(r: { data?: Array<{ user: { login: string }; content: string }>; response: Response }): string[] {
  assert.is(r.response.status, 200);
  return r.data!.map((x) => `${x.user.login}:${x.content}`);
}

/** `blocker` blocks `blockee` (no operation under test does it). */
export async function block(app: TestApp, blockerId: number, blockeeId: number): Promise<void> {
  await app.services.deps.db.insert(userBlocks).values({ blockerId, blockeeId });
}
