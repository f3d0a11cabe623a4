// Who has been asked to review a pull request and has not answered yet: a request is a review of type
// `request` for a user or a team, and the latest approval, rejection or request of each reviewer
// decides. Read by the API's PullRequest (requested_reviewers, requested_reviewers_teams) and by the
// pull_request webhook payloads, in a fixed number of queries for any number of pull requests.
import { and, asc, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { pullReviews, teams, teamUnits, users, type AccessMode, type PullReviewRow, type TeamRow, type Unit, type UserRow } from '../../db/schema/index.js';

export interface OpenReviewRequests {
  users: UserRow[];
  teams: TeamRow[];
}

export interface ReviewRequestsOfPulls {
  byIssue: Map<number, OpenReviewRequests>;
  /** The unit permissions of every team in `byIssue` (the Team JSON shows them). */
  teamUnits: Map<number, Partial<Record<Unit, AccessMode>>>;
}

export async function openReviewRequests(db: Db, issueIds: number[]): Promise<ReviewRequestsOfPulls> {
  const byIssue = new Map<number, OpenReviewRequests>();
  const unitsOf = new Map<number, Partial<Record<Unit, AccessMode>>>();
  if (issueIds.length === 0) return { byIssue, teamUnits: unitsOf };
  const rows = await db.select().from(pullReviews)
    .where(and(inArray(pullReviews.issueId, issueIds), inArray(pullReviews.type, ['approve', 'reject', 'request'])))
    .orderBy(asc(pullReviews.id));
  const latest = new Map<string, PullReviewRow>();
  for (const r of rows) latest.set(`${r.issueId}:${r.reviewerId}:${r.teamId}`, r);
  const open = [...latest.values()].filter((r) => r.type === 'request');
  const userIds = [...new Set(open.map((r) => r.reviewerId).filter((id): id is number => !!id))];
  const teamIds = [...new Set(open.map((r) => r.teamId).filter((id): id is number => !!id))];
  const [people, groups, units] = await Promise.all([
    userIds.length ? db.select().from(users).where(inArray(users.id, userIds)) : [],
    teamIds.length ? db.select().from(teams).where(inArray(teams.id, teamIds)) : [],
    teamIds.length ? db.select().from(teamUnits).where(inArray(teamUnits.teamId, teamIds)) : [],
  ]);
  for (const id of teamIds) unitsOf.set(id, {});
  for (const u of units) unitsOf.get(u.teamId)![u.unit] = u.accessMode;
  for (const r of open) {
    const entry = byIssue.get(r.issueId) ?? { users: [], teams: [] };
    const u = people.find((p) => p.id === r.reviewerId);
    const t = groups.find((g) => g.id === r.teamId);
    if (u) entry.users.push(u);
    if (t) entry.teams.push(t);
    byIssue.set(r.issueId, entry);
  }
  return { byIssue, teamUnits: unitsOf };
}
