// SQL for "which accounts may this caller see" (permissions/users.ts canSeeUser, and permissions/org.ts
// canSeeOwner for organizations), for lists of users that are one paginated query.
import { eq, or, sql, type SQL } from 'drizzle-orm';
import { orgMembers, users, type UserRow } from '../../db/schema/index.js';

/** Accounts (users and organizations) `viewer` may see; the query must have `users` as the account. */
export function accountVisibleTo(viewer: UserRow | null): SQL {
  if (viewer?.isAdmin) return sql`true`;
  if (!viewer) return eq(users.visibility, 'public');
  return or(
    eq(users.visibility, 'public'),
    viewer.isRestricted ? undefined : eq(users.visibility, 'limited'),
    eq(users.id, viewer.id),
    sql`${sql.raw('"users"."id"')} in (select m.org_id from ${orgMembers} m where m.user_id = ${viewer.id})`,
  )!;
}
