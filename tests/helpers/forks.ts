// Fixtures for forks, stars and topics: starring, forking and setting topics through the API.
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';
import type { Actor } from './repos.js';

type RepoPath = { owner: string; repo: string };

export async function star(app: TestApp, as: Actor, path: RepoPath): Promise<void> {
  const r = await app.client(as.auth).PUT('/user/starred/{owner}/{repo}', { params: { path } });
  assert.is(r.response.status, 204, `PUT star ${path.owner}/${path.repo}: ${r.response.status}`);
}

export async function fork(app: TestApp, as: Actor, path: RepoPath, body: { organization?: string; name?: string } = {}) {
  const r = await app.client(as.auth).POST('/repos/{owner}/{repo}/forks', { params: { path }, body });
  assert.is(r.response.status, 202, `POST fork of ${path.owner}/${path.repo}: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function setTopics(app: TestApp, as: Actor, path: RepoPath, topics: string[]): Promise<void> {
  const r = await app.client(as.auth).PUT('/repos/{owner}/{repo}/topics', { params: { path }, body: { topics } });
  assert.is(r.response.status, 204, `PUT topics: ${JSON.stringify(r.error)}`);
}

/** The repository as `as` sees it (the counters). */
export async function repoOf(app: TestApp, as: Actor | null, path: RepoPath) {
  const r = await app.client(as?.auth).GET('/repos/{owner}/{repo}', { params: { path } });
  assert.is(r.response.status, 200);
  return r.data!;
}
