import { sql } from 'drizzle-orm';
import { issueCounters } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';

/**
 * The next issue/pull-request number of a repository. The counter row is locked until the creating
 * transaction ends, so concurrent creations get consecutive numbers, and a rolled-back creation
 * gives its number back (no gaps).
 */
export async function nextIssueIndex(tx: Db, repoId: number): Promise<number> {
  const [row] = await tx
    .insert(issueCounters)
    .values({ repoId, lastIndex: 1 })
    .onConflictDoUpdate({ target: issueCounters.repoId, set: { lastIndex: sql`${issueCounters.lastIndex} + 1` } })
    .returning({ index: issueCounters.lastIndex });
  return row!.index;
}
