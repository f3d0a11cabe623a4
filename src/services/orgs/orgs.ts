// Organizations: creation with its Owners team, look-up, members, and who may create repositories.
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { orgMembers, teamMembers, teams, teamUnits, units, users, type UserRow, type Visibility } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { Db } from '../../db/client.js';
import type { OrgViewer } from '../../permissions/org.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, isUniqueViolation } from '../errors.js';
import { checkOwnerName } from '../names.js';
import { renameAccount } from '../users/rename.js';
import { deleteOrganization, editOrganization, type EditOrgInput } from './orgEdit.js';

export type { EditOrgInput };

export interface CreateOrgInput {
  username: string;
  fullName?: string;
  description?: string;
  email?: string;
  location?: string;
  website?: string;
  visibility?: Visibility | '';
  repoAdminChangeTeamAccess?: boolean;
}

/** Adds `userId` to the organization (idempotent). */
export async function addOrgMember(tx: Db, orgId: number, userId: number): Promise<void> {
  await tx.insert(orgMembers).values({ orgId, userId }).onConflictDoNothing();
}

export class OrgService {
  constructor(private readonly deps: ServiceDeps) {}

  canCreateOrganization(actor: UserRow): boolean {
    return actor.isAdmin || (this.deps.config.allowCreateOrganization && actor.allowCreateOrganization && !actor.isRestricted);
  }

  /** `byAdmin`: a site administrator creates it for `actor` (POST /admin/users/{u}/orgs): no creation setting applies. */
  async create(actor: UserRow, input: CreateOrgInput, opts: { byAdmin?: boolean } = {}): Promise<UserRow> {
    if (!opts.byAdmin && !this.canCreateOrganization(actor)) throw new Forbidden('Create organization not allowed');
    if (actor.type !== 'User') throw new Invalid(`${actor.name} is an organization: only a user can own a new organization`);
    checkOwnerName(input.username);
    const lowerName = input.username.toLowerCase();
    try {
      return await withTx(this.deps.db, async (tx) => {
        const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.lowerName, lowerName));
        if (taken) throw new Invalid(`user already exists [name: ${input.username}]`);
        const [org] = await tx
          .insert(users)
          .values({
            name: input.username,
            lowerName,
            type: 'Organization',
            fullName: input.fullName ?? '',
            description: input.description ?? '',
            email: input.email ?? '',
            location: input.location ?? '',
            website: input.website ?? '',
            visibility: input.visibility || 'public',
            repoAdminChangeTeamAccess: input.repoAdminChangeTeamAccess ?? false,
            isActive: true,
          })
          .returning();
        await addOrgMember(tx, org!.id, actor.id);
        // The Owners team: owner mode on every unit (read on the external ones), every repository.
        const [owners] = await tx
          .insert(teams)
          .values({
            orgId: org!.id,
            name: 'Owners',
            lowerName: 'owners',
            accessMode: 'owner',
            includesAllRepositories: true,
            canCreateOrgRepo: true,
            visibility: 'private',
          })
          .returning();
        await tx.insert(teamUnits).values(
          units.map((unit) => ({ teamId: owners!.id, unit, accessMode: unit.startsWith('repo.ext_') ? ('read' as const) : ('owner' as const) })),
        );
        await tx.insert(teamMembers).values({ teamId: owners!.id, userId: actor.id, orgId: org!.id });
        return org!;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new Invalid(`user already exists [name: ${input.username}]`);
      throw err;
    }
  }

  async byName(name: string): Promise<UserRow | undefined> {
    const [row] = await this.deps.db
      .select()
      .from(users)
      .where(and(eq(users.lowerName, name.toLowerCase()), eq(users.type, 'Organization')));
    return row;
  }

  /** Members the viewer may see: all of them for members and admins, else the public ones. */
  async listMembers(org: UserRow, viewer: OrgViewer, page: { limit: number; offset: number }) {
    const { db } = this.deps;
    const all = viewer.isMember || !!viewer.user?.isAdmin;
    const where = all ? eq(orgMembers.orgId, org.id) : and(eq(orgMembers.orgId, org.id), eq(orgMembers.isPublic, true));
    const [rows, [total]] = await Promise.all([
      db.select({ user: users }).from(orgMembers).innerJoin(users, eq(users.id, orgMembers.userId)).where(where)
        .orderBy(asc(users.lowerName)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(orgMembers).where(where),
    ]);
    return { rows: rows.map((r) => r.user), total: total?.n ?? 0 };
  }

  edit(org: UserRow, viewer: OrgViewer, input: EditOrgInput): Promise<UserRow> {
    return editOrganization(this.deps, org, viewer, input);
  }

  /** Owners and site administrators. */
  async rename(org: UserRow, viewer: OrgViewer, newName: string): Promise<void> {
    if (!viewer.user?.isAdmin && !viewer.isOwner) throw new Forbidden('Must be an organization owner');
    await renameAccount(this.deps, org, newName, 'new_name');
  }

  delete(org: UserRow, viewer: OrgViewer): Promise<void> {
    return deleteOrganization(this.deps, org, viewer);
  }

  /** Site admins, org owners, and members of a team allowed to create repositories. */
  async canCreateRepo(org: UserRow, actor: UserRow): Promise<boolean> {
    if (actor.isAdmin) return true;
    const [row] = await this.deps.db
      .select({ ok: sql<boolean>`true` })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .where(
        and(
          eq(teamMembers.userId, actor.id),
          eq(teams.orgId, org.id),
          sql`(${teams.canCreateOrgRepo} or ${teams.accessMode} = 'owner')`,
        ),
      )
      .limit(1);
    return !!row;
  }
}
