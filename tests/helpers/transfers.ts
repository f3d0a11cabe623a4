// Transfer fixtures for the three transfer operations: start, accept and reject through the API, and
// what is on disk and in the database afterwards.
import { and, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import { collaborations, repoTransfers, teamRepos } from '../../src/db/schema/index.js';
import type { TestApp } from './harness.js';
import { existsSync, getRepo, git, pathOf, repoFolder, withClone, readIn, type Repository } from './repos.js';
import { assertRedirects } from './redirects.js';

export type TransferRepoOption = components['schemas']['TransferRepoOption'];

export const transfer = (app: TestApp, repo: Repository, body: TransferRepoOption, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/transfer', { params: { path: pathOf(repo) }, body });

export const accept = (app: TestApp, repo: Repository, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/transfer/accept', { params: { path: pathOf(repo) } });

export const reject = (app: TestApp, repo: Repository, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/transfer/reject', { params: { path: pathOf(repo) } });

/** Starts a transfer that must be left pending (201). */
export async function pending(app: TestApp, repo: Repository, body: TransferRepoOption, authorization: string): Promise<Repository> {
  const r = await transfer(app, repo, body, authorization);
  assert.is(r.response.status, 201, `transfer: ${r.response.status} ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function pendingRow(app: TestApp, repoId: number) {
  const [row] = await app.services.deps.db.select().from(repoTransfers).where(eq(repoTransfers.repoId, repoId));
  return row;
}

export async function collaboration(app: TestApp, repoId: number, userId: number) {
  const [row] = await app.services.deps.db.select().from(collaborations)
    .where(and(eq(collaborations.repoId, repoId), eq(collaborations.userId, userId)));
  return row?.accessMode;
}

export async function teamsOf(app: TestApp, repoId: number): Promise<number[]> {
  const rows = await app.services.deps.db.select().from(teamRepos).where(eq(teamRepos.repoId, repoId));
  return rows.map((r) => r.teamId).sort((a, b) => a - b);
}

/**
 * The repository answers under its new owner and no longer under the old one, its folder moved
 * (the old one is gone) and a clone of the new folder has `file` when given.
 */
export async function assertMoved(app: TestApp, from: string, to: string, name: string, authorization: string, file?: string) {
  const now = await getRepo(app, to, name, authorization);
  assert.is(now.response.status, 200, `GET /repos/${to}/${name}`);
  assert.is(now.data!.owner!.login, to);
  assert.is(now.data!.full_name, `${to}/${name}`);
  assert.is(now.data!.repo_transfer, null);
  // The old owner's name for it leads to the new one (Gitea's redirect), for a caller who may see it.
  await assertRedirects(app, 'GET', `/api/v1/repos/${from}/${name}`, `/api/v1/repos/${to}/${name}`, authorization);
  assert.not.ok(existsSync(repoFolder(app, from, name)), 'old folder gone');
  const dir = repoFolder(app, to, name);
  assert.ok(existsSync(dir), 'new folder there');
  assert.is(git(dir, ['rev-parse', '--is-bare-repository']).trim(), 'true');
  if (file) withClone(dir, (work) => assert.ok(readIn(work, file).length > 0, `${file} in the clone`));
  return now.data!;
}
