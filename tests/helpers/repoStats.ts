// Repository statistics (#38: languages, licenses): commits made through the contents API (a push to the
// default branch, so the statistics job is asked for a round) and a bounded wait for that round.
import * as assert from 'uvu/assert';
import { eq } from 'drizzle-orm';
import { repoStats } from '../../src/db/schema/index.js';
import { b64 } from './files.js';
import type { TestApp } from './harness.js';
import { eventually } from './hooks.js';
import { pathOf, type Actor, type Repository } from './repos.js';

/** One commit of `files` (text; null removes) through POST …/contents as `by`; answers the commit id. */
export async function commitFiles(app: TestApp, repo: Repository, by: Actor, files: Record<string, string | null>, branch?: string): Promise<string> {
  const r = await app.client(by.auth).POST('/repos/{owner}/{repo}/contents', {
    params: { path: pathOf(repo) },
    body: {
      ...(branch ? { branch: repo.default_branch, new_branch: branch } : {}),
      files: Object.entries(files).map(([path, text]) => (text === null
        ? { operation: 'delete' as const, path }
        : { operation: 'create' as const, path, content: b64(text) })),
    },
  });
  assert.is(r.response.status, 201, JSON.stringify(r.error));
  return r.data!.commit!.sha!;
}

/**
 * Waits (bounded) until the statistics job has no round left for the repository, and, with `commit`,
 * until it has computed that commit; answers the repository's `repo_stats` row.
 */
export async function statsSettled(app: TestApp, repoId: number, commit?: string): Promise<typeof repoStats.$inferSelect> {
  return eventually(async () => {
    const [row] = await app.services.deps.db.select().from(repoStats).where(eq(repoStats.repoId, repoId));
    return row && row.wantedAt === null && row.leasedBy === null && row.computedAt !== null && (commit === undefined || row.commit === commit) && row;
  }, `the statistics of repository ${repoId}${commit ? ` at ${commit}` : ''}`);
}
