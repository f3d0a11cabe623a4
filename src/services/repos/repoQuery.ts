// SQL conditions for "which repositories may this user see", so that lists are one paginated query
// with no per-item permission checks.
import { and, eq, exists, not, or, sql, type SQL } from 'drizzle-orm';
import { collaborations, orgMembers, repositories, teamMembers, teamRepos, teams, users, type UserRow } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';

/** Repositories `uid` owns, collaborates on, or reaches through a team (not mere public read). */
export function explicitAccess(db: Db, uid: number | ReturnType<typeof sql.placeholder>): SQL {
  return or(
    eq(repositories.ownerId, uid),
    exists(db.select({ one: sql`1` }).from(collaborations).where(and(eq(collaborations.repoId, repositories.id), eq(collaborations.userId, uid)))),
    exists(
      db
        .select({ one: sql`1` })
        .from(teamMembers)
        .innerJoin(teams, eq(teams.id, teamMembers.teamId))
        .where(
          and(
            eq(teamMembers.userId, uid),
            eq(teams.orgId, repositories.ownerId),
            or(
              eq(teams.includesAllRepositories, true),
              exists(db.select({ one: sql`1` }).from(teamRepos).where(and(eq(teamRepos.teamId, teams.id), eq(teamRepos.repoId, repositories.id)))),
            ),
          ),
        ),
    ),
  )!;
}

/**
 * Repositories `viewer` may see; the query must join `users` as the owner. Public repositories of
 * visible owners for everyone (restricted users excepted), plus explicit access; everything for admins.
 */
export function visibleTo(db: Db, viewer: UserRow | null): SQL {
  if (viewer?.isAdmin) return sql`true`;
  const ownerVisible = viewer
    ? or(
        eq(users.visibility, 'public'),
        viewer.isRestricted ? undefined : eq(users.visibility, 'limited'),
        eq(users.id, viewer.id),
        exists(db.select({ one: sql`1` }).from(orgMembers).where(and(eq(orgMembers.orgId, users.id), eq(orgMembers.userId, viewer.id)))),
      )
    : eq(users.visibility, 'public');
  const publicRead = viewer?.isRestricted ? undefined : and(not(repositories.isPrivate), ownerVisible);
  return or(publicRead, viewer ? explicitAccess(db, viewer.id) : undefined) ?? sql`false`;
}
