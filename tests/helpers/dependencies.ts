// Issue dependencies and blocks (#38): the calls the six dependency operation tests share.
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';
import type { Repo } from './issues.js';

type Meta = { index: number; owner?: string; repo?: string };
export type Side = 'dependencies' | 'blocks';

export const listLinks = (app: TestApp, side: Side, repo: Repo, index: number, auth?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET(`/repos/{owner}/{repo}/issues/{index}/${side}`, { params: { path: { ...repo.path, index }, query } });
export const addLink = (app: TestApp, side: Side, repo: Repo, index: number, auth: string | undefined, body: Meta) =>
  app.client(auth).POST(`/repos/{owner}/{repo}/issues/{index}/${side}`, { params: { path: { ...repo.path, index } }, body });
export const removeLink = (app: TestApp, side: Side, repo: Repo, index: number, auth: string | undefined, body: Meta) =>
  app.client(auth).DELETE(`/repos/{owner}/{repo}/issues/{index}/${side}`, { params: { path: { ...repo.path, index } }, body });

/** The `owner/repo#number` of each issue of a list answer, in its order. */
export function refs(r: { data?: Array<{ number: number; repository: { full_name: string } }>; response: Response }): string[] {
  assert.is(r.response.status, 200);
  return r.data!.map((i) => `${i.repository?.full_name}#${i.number}`);
}

export const ref = (repo: Repo, n: number) => `${repo.full_name}#${n}`;
