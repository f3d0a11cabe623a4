// Organization membership seen from both sides: the public members of an organization, the
// organizations of a user, publicizing and concealing a membership, and removing a member.
import { and, asc, count, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { orgMembers, teamMembers, teams, users, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { OrgViewer } from '../../permissions/org.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, NotFound } from '../errors.js';

type Page = { limit: number; offset: number };

/** Organizations `viewer` may see; the query must have `users` as the organization (see permissions/org.ts canSeeOwner). */
function orgVisibleTo(viewer: UserRow | null): SQL {
  if (viewer?.isAdmin) return sql`true`;
  if (!viewer) return eq(users.visibility, 'public');
  return or(
    eq(users.visibility, 'public'),
    viewer.isRestricted ? undefined : eq(users.visibility, 'limited'),
    sql`${sql.raw('"users"."id"')} in (select m.org_id from ${orgMembers} m where m.user_id = ${viewer.id})`,
  )!;
}

export class MemberService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The members whose membership is public, by name, whoever asks. */
  async listPublic(org: UserRow, page: Page): Promise<{ rows: UserRow[]; total: number }> {
    const { db } = this.deps;
    const where = and(eq(orgMembers.orgId, org.id), eq(orgMembers.isPublic, true));
    const [rows, [total]] = await Promise.all([
      db.select({ user: users }).from(orgMembers).innerJoin(users, eq(users.id, orgMembers.userId)).where(where)
        .orderBy(asc(users.lowerName)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(orgMembers).where(where),
    ]);
    return { rows: rows.map((r) => r.user), total: total?.n ?? 0 };
  }

  async isPublicMember(org: UserRow, user: UserRow): Promise<boolean> {
    const [row] = await this.deps.db.select({ isPublic: orgMembers.isPublic }).from(orgMembers)
      .where(and(eq(orgMembers.orgId, org.id), eq(orgMembers.userId, user.id)));
    return !!row?.isPublic;
  }

  /**
   * Publicizes or conceals `user`'s membership. Members only; a member's own, or anyone's for owners and
   * site admins (Gitea's rule); 404 when `user` is no member.
   */
  async setPublic(org: UserRow, viewer: OrgViewer, user: UserRow, isPublic: boolean): Promise<void> {
    const actor = viewer.user!;
    if (!actor.isAdmin && !viewer.isMember) throw new Forbidden('Must be an organization member');
    if (actor.id !== user.id && !actor.isAdmin && !viewer.isOwner) {
      throw new Forbidden(isPublic ? 'Cannot publicize another member' : 'Cannot conceal another member');
    }
    const changed = await this.deps.db.update(orgMembers).set({ isPublic })
      .where(and(eq(orgMembers.orgId, org.id), eq(orgMembers.userId, user.id)))
      .returning({ userId: orgMembers.userId });
    if (changed.length === 0) throw new NotFound();
  }

  /**
   * Removes `user` from every team of the organization and from the organization (owners and site admins).
   * Access comes from those rows alone, so it is gone at once. The last owner stays.
   */
  async remove(org: UserRow, viewer: OrgViewer, user: UserRow): Promise<void> {
    if (!viewer.user?.isAdmin && !viewer.isOwner) throw new Forbidden('Must be an organization owner');
    await withTx(this.deps.db, async (tx) => {
      const [member] = await tx.select({ userId: orgMembers.userId }).from(orgMembers)
        .where(and(eq(orgMembers.orgId, org.id), eq(orgMembers.userId, user.id))).for('update');
      if (!member) throw new NotFound();
      // Locks the owner teams' memberships so that two removals cannot each leave the other owner alone.
      const owners = await tx.select({ userId: teamMembers.userId }).from(teamMembers)
        .innerJoin(teams, eq(teams.id, teamMembers.teamId))
        .where(and(eq(teams.orgId, org.id), eq(teams.accessMode, 'owner'))).for('update');
      const ownerIds = new Set(owners.map((o) => o.userId));
      if (ownerIds.has(user.id) && ownerIds.size === 1) throw new Invalid('user is the last member of owner team');
      await tx.delete(teamMembers).where(and(eq(teamMembers.orgId, org.id), eq(teamMembers.userId, user.id)));
      await tx.delete(orgMembers).where(and(eq(orgMembers.orgId, org.id), eq(orgMembers.userId, user.id)));
    });
  }

  /**
   * The organizations `user` belongs to, by name: all of them for the user and site admins; for anyone
   * else the public memberships of organizations `viewer` may see (Gitea's DoerViewOtherVisibility).
   */
  async listOrgsOf(user: UserRow, viewer: UserRow | null, page: Page): Promise<{ rows: UserRow[]; total: number }> {
    const { db } = this.deps;
    const all = !!viewer && (viewer.isAdmin || viewer.id === user.id);
    const where = and(
      eq(orgMembers.userId, user.id),
      all ? undefined : eq(orgMembers.isPublic, true),
      all ? undefined : orgVisibleTo(viewer),
    );
    const [rows, [total]] = await Promise.all([
      db.select({ org: users }).from(orgMembers).innerJoin(users, eq(users.id, orgMembers.orgId)).where(where)
        .orderBy(asc(users.lowerName)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(orgMembers).innerJoin(users, eq(users.id, orgMembers.orgId)).where(where),
    ]);
    return { rows: rows.map((r) => r.org), total: total?.n ?? 0 };
  }

  /**
   * A team's members, by name: all of them for members of the organization and site admins, else those
   * whose membership of the organization is public (a concealed membership stays concealed).
   */
  async listTeamMembers(team: { id: number; orgId: number }, viewer: OrgViewer, page: Page): Promise<{ rows: UserRow[]; total: number }> {
    const { db } = this.deps;
    const all = viewer.isMember || !!viewer.user?.isAdmin;
    const where = and(
      eq(teamMembers.teamId, team.id),
      all ? undefined : inArray(teamMembers.userId,
        db.select({ id: orgMembers.userId }).from(orgMembers).where(and(eq(orgMembers.orgId, team.orgId), eq(orgMembers.isPublic, true)))),
    );
    const [rows, [total]] = await Promise.all([
      db.select({ user: users }).from(teamMembers).innerJoin(users, eq(users.id, teamMembers.userId)).where(where)
        .orderBy(asc(users.lowerName)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(teamMembers).where(where),
    ]);
    return { rows: rows.map((r) => r.user), total: total?.n ?? 0 };
  }
}
