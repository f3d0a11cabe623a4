// Counters recounted inside the transaction that changed what they count: always exact, whatever
// ran before (a recount of indexed rows, not a +1 that could drift). The two hot writes whose effect is
// certain (creating an issue, recording a merge) shift the repository's counters instead (shiftRepoIssues).
//
// Concurrent writers (PostgreSQL, READ COMMITTED): each recount first locks the counter's row, then
// counts in a new statement. A writer that waited for the lock therefore counts after the one before it
// committed, and the last writer to take the lock counts every committed row: the final value is exact.
// (Counting in the same statement as the lock would use a snapshot taken before the wait.) The lock is
// FOR NO KEY UPDATE, which does not conflict with the key-share locks that inserting child rows takes,
// and rows are locked in id order, so writers never deadlock on each other.
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { comments, issueLabels, issues, labels, milestones, repositories } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';

async function lockForCount(tx: Db, table: PgTable, id: PgColumn, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(sql`select ${id} from ${table} where ${inArray(id, ids)} order by ${id} for no key update`);
}

/**
 * A change whose effect on the counts is known without reading them (an issue created; a pull request
 * merged by the one writer whose compare-and-set took it): the repository's counters move by that much in
 * one statement, which takes the row lock itself, so concurrent writers each add theirs and none is lost.
 * It costs the same with a million issues as with one, where a recount scans them all.
 */
export async function shiftRepoIssues(tx: Db, repoId: number, s: { isPull: boolean; opened?: number; closed?: number }): Promise<void> {
  const shift = repoIssuesShift(tx, repoId, s);
  if (shift) await shift;
}

/** shiftRepoIssues as a statement not yet sent (to go with another, see recordEvents' `alongside`); undefined when nothing moves. */
export function repoIssuesShift(tx: Db, repoId: number, s: { isPull: boolean; opened?: number; closed?: number }) {
  const [all, closed] = s.isPull ? [repositories.numPulls, repositories.numClosedPulls] : [repositories.numIssues, repositories.numClosedIssues];
  const set: Record<string, SQL> = {};
  if (s.opened) set[s.isPull ? 'numPulls' : 'numIssues'] = sql`${all} + ${s.opened}`;
  if (s.closed) set[s.isPull ? 'numClosedPulls' : 'numClosedIssues'] = sql`${closed} + ${s.closed}`;
  return Object.keys(set).length ? tx.update(repositories).set(set).where(eq(repositories.id, repoId)) : undefined;
}

export async function recountRepoIssues(tx: Db, repoId: number): Promise<void> {
  await lockForCount(tx, repositories, repositories.id, [repoId]);
  await tx
    .update(repositories)
    .set({
      numIssues: sql`(select count(*) from ${issues} where ${issues.repoId} = ${repoId} and not ${issues.isPull})`,
      numClosedIssues: sql`(select count(*) from ${issues} where ${issues.repoId} = ${repoId} and not ${issues.isPull} and ${issues.isClosed})`,
      numPulls: sql`(select count(*) from ${issues} where ${issues.repoId} = ${repoId} and ${issues.isPull})`,
      numClosedPulls: sql`(select count(*) from ${issues} where ${issues.repoId} = ${repoId} and ${issues.isPull} and ${issues.isClosed})`,
    })
    .where(eq(repositories.id, repoId));
}

export async function recountMilestones(tx: Db, ids: Array<number | null | undefined>): Promise<void> {
  const unique = [...new Set(ids.filter((i): i is number => !!i))].sort((a, b) => a - b);
  await lockForCount(tx, milestones, milestones.id, unique);
  for (const id of unique) {
    await tx
      .update(milestones)
      .set({
        numIssues: sql`(select count(*) from ${issues} where ${issues.milestoneId} = ${id})`,
        numClosedIssues: sql`(select count(*) from ${issues} where ${issues.milestoneId} = ${id} and ${issues.isClosed})`,
      })
      .where(eq(milestones.id, id));
  }
}

export async function recountLabels(tx: Db, ids: number[]): Promise<void> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  await lockForCount(tx, labels, labels.id, unique);
  for (const id of unique) {
    await tx
      .update(labels)
      .set({
        numIssues: sql`(select count(*) from ${issueLabels} where ${issueLabels.labelId} = ${id})`,
        numClosedIssues: sql`(select count(*) from ${issueLabels} join ${issues} on ${issues.id} = ${issueLabels.issueId}
          where ${issueLabels.labelId} = ${id} and ${issues.isClosed})`,
      })
      .where(eq(labels.id, id));
  }
}

export async function recountComments(tx: Db, issueId: number): Promise<void> {
  await lockForCount(tx, issues, issues.id, [issueId]);
  const [row] = await tx
    .select({ n: count() })
    .from(comments)
    .where(and(eq(comments.issueId, issueId), eq(comments.type, 'comment')));
  await tx.update(issues).set({ numComments: row?.n ?? 0 }).where(eq(issues.id, issueId));
}
