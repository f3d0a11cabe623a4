// Everything an Issue or PullRequest answer shows besides the row, for a whole page in a fixed number
// of queries (labels, assignees, milestones, posters, attachments, pull requests).
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import {
  attachments, issueAssignees, issueLabels, labels, milestones, pullRequests, users,
  type AttachmentRow, type IssueRow, type LabelRow, type MilestoneRow, type PullRequestRow, type UserRow,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';

export interface IssueDetails {
  poster: UserRow | undefined;
  labels: LabelRow[];
  assignees: UserRow[];
  milestone: MilestoneRow | undefined;
  assets: AttachmentRow[];
  pull: PullRequestRow | undefined;
}

export async function loadIssueDetails(db: Db, rows: IssueRow[]): Promise<Map<number, IssueDetails>> {
  const ids = rows.map((r) => r.id);
  const out = new Map<number, IssueDetails>();
  if (ids.length === 0) return out;
  const milestoneIds = [...new Set(rows.map((r) => r.milestoneId).filter((m): m is number => !!m))];
  const posterIds = [...new Set(rows.map((r) => r.posterId))];
  const [labelRows, assigneeRows, milestoneRows, posters, assets, pulls] = await Promise.all([
    db.select({ issueId: issueLabels.issueId, label: labels }).from(issueLabels).innerJoin(labels, eq(labels.id, issueLabels.labelId))
      .where(inArray(issueLabels.issueId, ids)).orderBy(asc(labels.name)),
    db.select({ issueId: issueAssignees.issueId, user: users }).from(issueAssignees).innerJoin(users, eq(users.id, issueAssignees.userId))
      .where(inArray(issueAssignees.issueId, ids)).orderBy(asc(issueAssignees.createdAt), asc(users.id)),
    milestoneIds.length ? db.select().from(milestones).where(inArray(milestones.id, milestoneIds)) : Promise.resolve([]),
    db.select().from(users).where(inArray(users.id, posterIds)),
    db.select().from(attachments).where(and(inArray(attachments.issueId, ids), isNull(attachments.commentId))).orderBy(asc(attachments.id)),
    db.select().from(pullRequests).where(inArray(pullRequests.issueId, ids)),
  ]);
  for (const r of rows) {
    out.set(r.id, {
      poster: posters.find((p) => p.id === r.posterId),
      labels: labelRows.filter((l) => l.issueId === r.id).map((l) => l.label),
      assignees: assigneeRows.filter((a) => a.issueId === r.id).map((a) => a.user),
      milestone: milestoneRows.find((m) => m.id === r.milestoneId),
      assets: assets.filter((a) => a.issueId === r.id),
      pull: pulls.find((p) => p.issueId === r.id),
    });
  }
  return out;
}
