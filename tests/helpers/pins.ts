// Shared setup of the pin tests (#38): pin/unpin/move calls, the pinned lists as numbers, and a repository
// with pull requests to pin (branches made through POST diffpatch).
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';
import { repoFor } from './gitFixtures.js';
import { type People, type Repo } from './issues.js';
import { addFile, openPull, patch } from './pulls.js';
import { pathOf } from './repos.js';

export const pin = (app: TestApp, repo: Repo, index: number, auth?: string) =>
  app.client(auth).POST('/repos/{owner}/{repo}/issues/{index}/pin', { params: { path: { ...repo.path, index } } });
export const unpin = (app: TestApp, repo: Repo, index: number, auth?: string) =>
  app.client(auth).DELETE('/repos/{owner}/{repo}/issues/{index}/pin', { params: { path: { ...repo.path, index } } });
export const movePin = (app: TestApp, repo: Repo, index: number, position: number, auth?: string) =>
  app.client(auth).PATCH('/repos/{owner}/{repo}/issues/{index}/pin/{position}', { params: { path: { ...repo.path, index, position } } });
export const pinnedIssues = (app: TestApp, repo: Repo, auth?: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/issues/pinned', { params: { path: repo.path } });
export const pinnedPulls = (app: TestApp, repo: Repo, auth?: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/pulls/pinned', { params: { path: repo.path } });
export const newPinAllowed = (app: TestApp, repo: Repo, auth?: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/new_pin_allowed', { params: { path: repo.path } });

/** Pins, expecting 204. */
export async function pinned(app: TestApp, repo: Repo, auth: string, ...indexes: number[]): Promise<void> {
  for (const index of indexes) {
    const r = await pin(app, repo, index, auth);
    assert.is(r.response.status, 204, `pin #${index}: ${JSON.stringify(r.error)}`);
  }
}

/** The numbers of the pinned issues, in order, and their pin_order. */
export async function pinnedNumbers(app: TestApp, repo: Repo, auth?: string): Promise<Array<[number, number]>> {
  const r = await pinnedIssues(app, repo, auth);
  assert.is(r.response.status, 200);
  return r.data!.map((i) => [i.number, i.pin_order]);
}

/** A repository (writer and reader collaborators) with `n` open pull requests by the writer; answers their numbers. */
export async function repoWithPulls(app: TestApp, p: People, n: number): Promise<{ repo: Repo; pulls: number[] }> {
  const made = await repoFor(app, p);
  const repo = { ...made, path: pathOf(made) };
  const pulls: number[] = [];
  for (let i = 0; i < n; i++) {
    await patch(app, repo, p.writer, addFile(`f${i}.txt`, [String(i)]), { newBranch: `b${i}` });
    pulls.push((await openPull(app, repo, p.writer, `b${i}`)).number);
  }
  return { repo, pulls };
}
