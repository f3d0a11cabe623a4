// Commit-status fixtures: report statuses through the API, and bulk rows for list-size tests.
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import { and, eq } from 'drizzle-orm';
import { commitStatuses, commitStatusIndexes } from '../../src/db/schema/index.js';
import type { TestApp } from './harness.js';
import { pathOf, type Repository } from './repos.js';

export type CommitStatus = components['schemas']['CommitStatus'];
export type CreateStatusOption = components['schemas']['CreateStatusOption'];
export type CombinedStatus = components['schemas']['CombinedStatus'];
export const states = ['pending', 'success', 'error', 'failure', 'warning', 'skipped'] as const;
export type State = (typeof states)[number];

/** POST /repos/{o}/{r}/statuses/{sha}, any answer. */
export const postStatus = (app: TestApp, auth: string | undefined, repo: Repository, sha: string, body: CreateStatusOption) =>
  app.client(auth).POST('/repos/{owner}/{repo}/statuses/{sha}', { params: { path: { ...pathOf(repo), sha } }, body });

/** Reports a status and expects 201. */
export async function report(app: TestApp, auth: string, repo: Repository, sha: string, body: CreateStatusOption): Promise<CommitStatus> {
  const res = await postStatus(app, auth, repo, sha, body);
  assert.is(res.response.status, 201, `report status: ${JSON.stringify(res.error)}`);
  return res.data!;
}

/** `n` statuses of one commit written as rows (the API path is tested elsewhere; this is for list sizes). */
export async function bulkStatuses(app: TestApp, repoId: number, sha: string, n: number, creatorId: number): Promise<void> {
  const db = app.services.deps.db;
  const start = Date.UTC(2024, 0, 1);
  for (let from = 0; from < n; from += 1000) {
    const rows = Array.from({ length: Math.min(1000, n - from) }, (_, k) => {
      const i = from + k + 1;
      return {
        repoId, sha, index: i, state: states[i % 5]!, context: `ctx-${i % 7}`, description: `#${i}`, creatorId,
        createdAt: new Date(start + i * 1000),
      };
    });
    await db.insert(commitStatuses).values(rows);
  }
  await db.insert(commitStatusIndexes).values({ repoId, sha, maxIndex: n });
}

/** Replaces a commit's statuses with `list` (numbered 1, 2, ... in order), as rows: for many combinations fast. */
export async function setStatuses(app: TestApp, repoId: number, sha: string, list: Array<{ context: string; state: State }>, creatorId: number): Promise<void> {
  const db = app.services.deps.db;
  await db.delete(commitStatuses).where(and(eq(commitStatuses.repoId, repoId), eq(commitStatuses.sha, sha)));
  if (list.length === 0) return;
  const start = Date.now() - list.length * 1000;
  await db.insert(commitStatuses).values(list.map((x, i) => ({
    repoId, sha, index: i + 1, state: x.state, context: x.context, creatorId, createdAt: new Date(start + i * 1000),
  })));
}
