// Counters recounted inside the transaction that changed what they count: always exact, whatever
// ran before (a recount of indexed rows, not a +1 that could drift).
import { and, count, eq, sql } from 'drizzle-orm';
import { comments, issueLabels, issues, labels, milestones, repositories } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';

export async function recountRepoIssues(tx: Db, repoId: number): Promise<void> {
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
  for (const id of new Set(ids.filter((i): i is number => !!i))) {
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
  for (const id of new Set(ids)) {
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
  const [row] = await tx
    .select({ n: count() })
    .from(comments)
    .where(and(eq(comments.issueId, issueId), eq(comments.type, 'comment')));
  await tx.update(issues).set({ numComments: row?.n ?? 0 }).where(eq(issues.id, issueId));
}
