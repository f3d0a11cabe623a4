// The allow-lists of protection rules (branches and tags): users and teams named in the API, stored by id.
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { teamMembers, teams, users } from '../../db/schema/index.js';
import { Invalid } from '../errors.js';

/** The ids of the named users; 422 for a name no user has. */
export async function userIdsByName(db: Db, names: string[]): Promise<number[]> {
  const lower = [...new Set(names.map((n) => n.toLowerCase()))];
  if (!lower.length) return [];
  const found = await db.select({ id: users.id, lowerName: users.lowerName }).from(users).where(inArray(users.lowerName, lower));
  const missing = lower.find((n) => !found.some((u) => u.lowerName === n));
  if (missing) throw new Invalid(`user does not exist [name: ${missing}]`);
  return found.map((u) => u.id);
}

/** The ids of the organization's named teams; 422 for a name no team of it has. */
export async function teamIdsByName(db: Db, orgId: number, names: string[]): Promise<number[]> {
  const lower = [...new Set(names.map((n) => n.toLowerCase()))];
  if (!lower.length) return [];
  const found = await db.select({ id: teams.id, lowerName: teams.lowerName }).from(teams).where(and(eq(teams.orgId, orgId), inArray(teams.lowerName, lower)));
  const missing = lower.find((n) => !found.some((t) => t.lowerName === n));
  if (missing) throw new Invalid(`team does not exist [name: ${missing}]`);
  return found.map((t) => t.id);
}

/** Whether the user is one of `userIds` or a member of one of `teamIds`. */
export async function isListed(db: Db, userId: number, userIds: number[], teamIds: number[]): Promise<boolean> {
  if (userIds.includes(userId)) return true;
  if (!teamIds.length) return false;
  const [m] = await db.select({ teamId: teamMembers.teamId }).from(teamMembers)
    .where(and(eq(teamMembers.userId, userId), inArray(teamMembers.teamId, teamIds))).limit(1);
  return !!m;
}

/** The names of the given users and teams, by id. */
export async function namesOf(db: Db, userIds: number[], teamIds: number[]): Promise<{ userNames: Map<number, string>; teamNames: Map<number, string> }> {
  const [people, groups] = await Promise.all([
    userIds.length ? db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, [...new Set(userIds)])) : [],
    teamIds.length ? db.select({ id: teams.id, name: teams.name }).from(teams).where(inArray(teams.id, [...new Set(teamIds)])) : [],
  ]);
  return { userNames: new Map(people.map((u) => [u.id, u.name])), teamNames: new Map(groups.map((t) => [t.id, t.name])) };
}
