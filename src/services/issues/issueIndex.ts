import { sql } from 'drizzle-orm';
import { issueCounters } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';

/**
 * The next issue/pull-request number of a repository. The counter row is locked until the creating
 * transaction ends, so concurrent creations get consecutive numbers, and a rolled-back creation
 * gives its number back (no gaps).
 */
/**
 * The same counter bump as a CTE (`next_index`, column `last_index`) for an insert that takes its
 * number in the same statement: one round trip fewer while the counter row is locked.
 */
export function nextIssueIndexCte(tx: Db, repoId: number) {
  return tx.$with('next_index', { lastIndex: sql<number>`last_index` }).as(
    sql`insert into ${issueCounters} (repo_id, last_index) values (${repoId}, 1)
      on conflict (repo_id) do update set last_index = ${issueCounters}.last_index + 1 returning last_index`,
  );
}

export async function nextIssueIndex(tx: Db, repoId: number): Promise<number> {
  const [row] = await tx
    .insert(issueCounters)
    .values({ repoId, lastIndex: 1 })
    .onConflictDoUpdate({ target: issueCounters.repoId, set: { lastIndex: sql`${issueCounters.lastIndex} + 1` } })
    .returning({ index: issueCounters.lastIndex });
  return row!.index;
}
