// What a site administrator does to accounts (terraform's gitea_user, tea's `admin users`): list and search
// them, edit every field, delete (with or without what they own); and the public user search.
import { and, asc, count, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { emailAddresses, hooks, orgMembers, repositories, stars, teamMembers, teams, users, type UserRow, type Visibility } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Invalid, isUniqueViolation } from '../errors.js';
import { containsPattern } from '../like.js';
import { checkEmail } from '../names.js';
import type { RepoService } from '../repos/repos.js';
import { discardAvatar } from './avatars.js';
import { hashPassword } from './passwords.js';
import { renameAccount } from './rename.js';

export interface EditUserInput {
  sourceId?: number;
  loginName?: string;
  email?: string;
  fullName?: string;
  password?: string;
  mustChangePassword?: boolean;
  website?: string;
  location?: string;
  description?: string;
  active?: boolean;
  admin?: boolean;
  maxRepoCreation?: number;
  prohibitLogin?: boolean;
  allowCreateOrganization?: boolean;
  allowGitHook?: boolean;
  restricted?: boolean;
  visibility?: Visibility;
}

type Page = { limit: number; offset: number };

export class UserAdminService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly repos: RepoService,
  ) {}

  /** Individual users by lower-cased name; `q` in name, full name or any of their addresses. */
  async search(input: { q?: string; sourceId?: number; loginName?: string }, page: Page): Promise<{ rows: UserRow[]; total: number }> {
    const conds: Array<SQL | undefined> = [eq(users.type, 'User')];
    const q = input.q?.trim().toLowerCase();
    if (q) {
      const p = containsPattern(q);
      conds.push(or(ilike(users.lowerName, p), ilike(users.fullName, p),
        sql`exists (select 1 from ${emailAddresses} where ${emailAddresses.userId} = ${users.id} and ${emailAddresses.lowerEmail} ilike ${p})`));
    }
    if (input.sourceId !== undefined) conds.push(eq(users.loginSource, input.sourceId));
    if (input.loginName) conds.push(eq(users.loginName, input.loginName));
    return this.page(and(...conds), page);
  }

  /** Every organization, private ones included. */
  orgs(page: Page): Promise<{ rows: UserRow[]; total: number }> {
    return this.page(eq(users.type, 'Organization'), page);
  }

  /** GET /users/search: individual users `viewer` may see; `q` in name, full name, or a shown e-mail address. */
  async publicSearch(viewer: UserRow | null, input: { q?: string; uid?: number }, page: Page): Promise<{ rows: UserRow[]; total: number }> {
    const conds: Array<SQL | undefined> = [eq(users.type, 'User')];
    if (!viewer) conds.push(eq(users.visibility, 'public'));
    else if (!viewer.isAdmin) {
      conds.push(or(eq(users.id, viewer.id), viewer.isRestricted ? eq(users.visibility, 'public') : inArray(users.visibility, ['public', 'limited'])));
    }
    const q = input.q?.trim().toLowerCase();
    if (q) {
      const p = containsPattern(q);
      conds.push(or(ilike(users.lowerName, p), ilike(users.fullName, p), and(eq(users.keepEmailPrivate, false), ilike(users.email, p))));
    }
    if (input.uid) conds.push(eq(users.id, input.uid));
    return this.page(and(...conds), page);
  }

  private async page(where: SQL | undefined, page: Page): Promise<{ rows: UserRow[]; total: number }> {
    const { db } = this.deps;
    const [rows, [total]] = await Promise.all([
      db.select().from(users).where(where).orderBy(asc(users.lowerName), asc(users.id)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(users).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async edit(target: UserRow, input: EditUserInput): Promise<UserRow> {
    const { db, config } = this.deps;
    if (target.type === 'Organization') throw new Invalid(`${target.name} is an organization, not a user`);
    if (input.sourceId) throw new Invalid(`login source does not exist [id: ${input.sourceId}]`);
    let passwordHash: string | undefined;
    if (input.password !== undefined && input.password !== '') {
      if (input.password.length < config.minPasswordLength) throw new BadRequest(`password is too short: it needs at least ${config.minPasswordLength} characters`);
      passwordHash = await hashPassword(input.password, config.passwordHashCost);
    }
    const email = input.email?.trim();
    if (email !== undefined) checkEmail(email);
    try {
      return await withTx(db, async (tx) => {
        if (input.admin === false && target.isAdmin) {
          const [others] = await tx.select({ n: count() }).from(users).where(and(eq(users.isAdmin, true), ne(users.id, target.id)));
          if (!others?.n) throw new BadRequest('You cannot remove the last admin');
        }
        if (email !== undefined && email.toLowerCase() !== target.email.toLowerCase()) {
          const lower = email.toLowerCase();
          const [used] = await tx.select().from(emailAddresses).where(eq(emailAddresses.lowerEmail, lower));
          if (used && used.userId !== target.id) throw new Invalid(`e-mail already in use [email: ${email}]`);
          // As Gitea: the new address replaces the primary one (one of the user's other addresses moves up).
          if (used) await tx.delete(emailAddresses).where(eq(emailAddresses.id, used.id));
          const replaced = await tx.update(emailAddresses).set({ email, lowerEmail: lower, isActivated: true })
            .where(and(eq(emailAddresses.userId, target.id), eq(emailAddresses.isPrimary, true))).returning({ id: emailAddresses.id });
          if (!replaced.length) await tx.insert(emailAddresses).values({ userId: target.id, email, lowerEmail: lower, isActivated: true, isPrimary: true });
        }
        const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
        if (input.loginName !== undefined) set.loginName = input.loginName;
        if (email !== undefined) set.email = email;
        if (input.fullName !== undefined) set.fullName = input.fullName;
        if (passwordHash) set.passwordHash = passwordHash;
        if (input.mustChangePassword !== undefined) set.mustChangePassword = input.mustChangePassword;
        if (input.website !== undefined) set.website = input.website;
        if (input.location !== undefined) set.location = input.location;
        if (input.description !== undefined) set.description = input.description;
        if (input.active !== undefined) set.isActive = input.active;
        if (input.admin !== undefined) set.isAdmin = input.admin;
        if (input.maxRepoCreation !== undefined) set.maxRepoCreation = input.maxRepoCreation;
        if (input.prohibitLogin !== undefined) set.prohibitLogin = input.prohibitLogin;
        if (input.allowCreateOrganization !== undefined) set.allowCreateOrganization = input.allowCreateOrganization;
        if (input.allowGitHook !== undefined) set.allowGitHook = input.allowGitHook;
        if (input.restricted !== undefined) set.isRestricted = input.restricted;
        if (input.visibility !== undefined) set.visibility = input.visibility;
        const [row] = await tx.update(users).set(set).where(eq(users.id, target.id)).returning();
        return row!;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new Invalid(`e-mail already in use [email: ${email}]`);
      throw err;
    }
  }

  /**
   * Deletes the account. Without `purge` it must own no repository and belong to no organization; with it,
   * its repositories go, it leaves its organizations, and those it is the last owner of go too.
   */
  /** An individual user only (422 for an organization, as in Gitea). */
  async rename(target: UserRow, newName: string): Promise<void> {
    if (target.type === 'Organization') throw new Invalid(`${target.name} is an organization not a user`);
    await renameAccount(this.deps, target, newName, 'new_username');
  }

  async delete(target: UserRow, actor: UserRow, purge: boolean): Promise<void> {
    const { db } = this.deps;
    if (target.type === 'Organization') throw new Invalid(`${target.name} is an organization, not a user`);
    if (target.id === actor.id) throw new Invalid('you cannot delete yourself');
    const owned = await db.select({ name: repositories.name }).from(repositories).where(eq(repositories.ownerId, target.id)).orderBy(asc(repositories.lowerName));
    const memberships = await db.select({ orgId: orgMembers.orgId, name: users.name }).from(orgMembers).innerJoin(users, eq(users.id, orgMembers.orgId)).where(eq(orgMembers.userId, target.id));
    if (!purge) {
      if (owned.length) throw new Invalid(`user still has ownership of repositories [uid: ${target.id}, count: ${owned.length}]`);
      if (memberships.length) throw new Invalid(`user still has membership of organizations [uid: ${target.id}]`);
    } else {
      for (const r of owned) await this.deleteRepo(target.name, r.name, actor);
      for (const m of memberships) {
        if (await this.isLastOwner(m.orgId, target.id)) {
          const orgRepos = await db.select({ name: repositories.name }).from(repositories).where(eq(repositories.ownerId, m.orgId));
          for (const r of orgRepos) await this.deleteRepo(m.name, r.name, actor);
          await withTx(db, async (tx) => {
            await tx.delete(hooks).where(eq(hooks.ownerId, m.orgId));
            await tx.delete(users).where(eq(users.id, m.orgId));
          });
          await discardAvatar(this.deps, m.orgId);
        }
      }
    }
    await withTx(db, async (tx) => {
      // A repository created meanwhile keeps the account (the foreign key refuses): 422, nothing deleted.
      const [still] = await tx.select({ id: repositories.id }).from(repositories).where(eq(repositories.ownerId, target.id)).limit(1);
      if (still) throw new Invalid(`user still has ownership of repositories [uid: ${target.id}]`);
      // The user's stars go with the account: the repositories they starred count one fewer.
      await tx.update(repositories).set({ numStars: sql`greatest(${repositories.numStars} - 1, 0)` })
        .where(sql`${repositories.id} in (select ${stars.repoId} from ${stars} where ${stars.userId} = ${target.id})`);
      await tx.delete(users).where(eq(users.id, target.id));
    });
    await discardAvatar(this.deps, target.id);
  }

  private async deleteRepo(owner: string, name: string, actor: UserRow): Promise<void> {
    const loaded = await this.repos.load(owner, name, actor).catch(() => undefined);
    if (loaded) await this.repos.delete(loaded, actor);
  }

  private async isLastOwner(orgId: number, userId: number): Promise<boolean> {
    const owners = await this.deps.db
      .selectDistinct({ userId: teamMembers.userId })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .where(and(eq(teams.orgId, orgId), eq(teams.accessMode, 'owner')));
    return owners.every((o) => o.userId === userId);
  }
}
