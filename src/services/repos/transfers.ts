// Repository transfers, as Gitea's StartRepositoryTransfer / TransferOwnership / RejectRepositoryTransfer:
// straight away when the caller may put the repository there, otherwise pending until the recipient
// accepts or rejects it. A move changes the owner row and the folder in one step, undone together.
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import {
  collaborations, repositories, repoTransfers, teamMembers, teamRepos, teams, units, users,
  type RepoRow, type RepoTransferRow, type UserRow,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { recordRepoRedirect } from './redirects.js';
import { notifyTransferOffered } from '../notifications/notifier.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import { repoDir, wikiDir } from '../../git/paths.js';
import { canSeeRepo, type RepoPermission } from '../../permissions/repo.js';
import type { AccessService } from './access.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Forbidden, Invalid, NotFound, isUniqueViolation } from '../errors.js';
import type { OrgService } from '../orgs/orgs.js';
import type { LoadedRepo, RepoService } from './repos.js';
import type { TeamService, TeamWithUnits } from '../orgs/teams.js';
import { refuseBlocked } from '../users/blocks.js';

export interface StartTransferInput {
  newOwner: string;
  /** null or absent: no teams; an array (even empty) is only allowed for an organization, as in Gitea. */
  teamIds?: number[] | null;
}

/** A pending transfer with the people and teams it names, for the `repo_transfer` field. */
export interface TransferView {
  doer: UserRow;
  recipient: UserRow;
  teams: TeamWithUnits[];
}

export type StartedTransfer = (LoadedRepo & { pending: false }) | (LoadedRepo & { pending: true; transfer: TransferView });

/** What the transfer answers carry whoever asked (Gitea: ToRepo(..., AccessModeAdmin)). */
const adminPermission: RepoPermission = {
  mode: 'admin',
  units: Object.fromEntries(units.map((u) => [u, 'admin'])) as RepoPermission['units'],
};

const alreadyExists = (owner: UserRow, repo: RepoRow) =>
  new Invalid(`repository already exists [uname: ${owner.name}, name: ${repo.name}]`);
const inProgress = (owner: UserRow, repo: RepoRow) =>
  new Conflict(`repository is already being transferred [uname: ${owner.name}, name: ${repo.name}]`);

export class TransferService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly repos: RepoService,
    private readonly orgs: OrgService,
    private readonly teams: TeamService,
  ) {}

  /** Owner, organization owner or site admin; 202 (`pending: false`) when done at once, 201 when left pending. */
  async start(loaded: LoadedRepo, actor: UserRow, input: StartTransferInput): Promise<StartedTransfer> {
    const { repo, owner, perm } = loaded;
    if (perm.mode !== 'owner') throw new Forbidden('user should be the owner of the repository');
    const [target] = await this.deps.db.select().from(users).where(eq(users.lowerName, input.newOwner.toLowerCase()));
    if (!target || !(await this.access.canSeeOwner(target, actor))) {
      throw new NotFound('The new owner does not exist or cannot be found');
    }
    // As Gitea: a new owner who blocked the caller is refused (403 `user is blocked`).
    await refuseBlocked(this.deps.db, actor.id, [target.id]);
    const teamIds = await this.checkTeams(target, input.teamIds);
    const direct = actor.isAdmin || actor.id === target.id ||
      (target.type === 'Organization' && (await this.orgs.canCreateRepo(target, actor)));
    if (await this.pendingOf(repo.id)) throw inProgress(owner, repo);
    await this.checkNameFree(target, repo);
    if (direct) {
      const row = await this.move(repo, owner, target, teamIds, actor);
      return { repo: row, owner: target, perm: adminPermission, pending: false };
    }
    // A user recipient who could not see the repository gets read access to look at it first;
    // an organization cannot be a collaborator (its members who may accept see it through `load`).
    const recipientPerm = target.type === 'Organization' ? undefined : await this.access.repoPermission(repo, owner, target);
    const grantRead = !!recipientPerm && !canSeeRepo(recipientPerm);
    try {
      await withTx(this.deps.db, async (tx) => {
        const granted = grantRead
          ? await tx.insert(collaborations).values({ repoId: repo.id, userId: target.id, accessMode: 'read' })
            .onConflictDoNothing().returning({ userId: collaborations.userId })
          : [];
        await tx.insert(repoTransfers).values({
          repoId: repo.id, doerId: actor.id, recipientId: target.id, teamIds, grantedRead: granted.length > 0,
        });
        await notifyTransferOffered(tx, repo, target, actor.id);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw inProgress(owner, repo);
      throw err;
    }
    const transfer = await this.viewOf(repo.id);
    if (!transfer) throw inProgress(owner, repo); // accepted or rejected in the meantime
    return { repo, owner, perm: adminPermission, pending: true, transfer };
  }

  /**
   * The repository for its transfer's recipient: as `repos.load`, and also when a pending transfer is
   * addressed to the caller who otherwise could not see it (a private repository offered to an
   * organization, whose members get no collaborator row).
   */
  async load(ownerName: string, name: string, actor: UserRow | null): Promise<LoadedRepo> {
    try {
      return await this.repos.load(ownerName, name, actor);
    } catch (err) {
      if (!(err instanceof NotFound) || !actor) throw err;
      const [row] = await this.deps.db
        .select({ repo: repositories, owner: users, recipientId: repoTransfers.recipientId })
        .from(repositories)
        .innerJoin(users, eq(users.id, repositories.ownerId))
        .innerJoin(repoTransfers, eq(repoTransfers.repoId, repositories.id))
        .where(and(eq(users.lowerName, ownerName.toLowerCase()), eq(repositories.lowerName, name.toLowerCase())));
      if (!row || !(await this.isRecipient(row.recipientId, actor))) throw err;
      return { repo: row.repo, owner: row.owner, perm: await this.access.repoPermission(row.repo, row.owner, actor) };
    }
  }

  /** The recipient moves the repository to themselves; site admins get no bypass (as in Gitea). */
  async accept(loaded: LoadedRepo, actor: UserRow): Promise<LoadedRepo> {
    const { repo, owner } = loaded;
    const pending = await this.pendingOf(repo.id);
    if (!pending) throw new NotFound();
    if (!(await this.isRecipient(pending.recipientId, actor))) {
      throw new Forbidden('user does not have permission to accept or reject this transfer');
    }
    const [target] = await this.deps.db.select().from(users).where(eq(users.id, pending.recipientId));
    await this.checkNameFree(target!, repo);
    const row = await this.move(repo, owner, target!, pending.teamIds, actor, pending.id);
    return { repo: row, owner: target!, perm: await this.access.repoPermission(row, target!, actor) };
  }

  /** The recipient declines: the pending row goes, and so does the read access given for it. */
  async reject(loaded: LoadedRepo, actor: UserRow): Promise<LoadedRepo> {
    const { repo, owner } = loaded;
    const pending = await this.pendingOf(repo.id);
    if (!pending) throw new NotFound();
    if (!(await this.isRecipient(pending.recipientId, actor))) {
      throw new Forbidden('user does not have permission to accept or reject this transfer');
    }
    await withTx(this.deps.db, async (tx) => {
      const gone = await tx.delete(repoTransfers).where(eq(repoTransfers.id, pending.id)).returning({ id: repoTransfers.id });
      if (gone.length === 0) throw new NotFound();
      if (pending.grantedRead) {
        await tx.delete(collaborations).where(and(
          eq(collaborations.repoId, repo.id), eq(collaborations.userId, pending.recipientId), eq(collaborations.accessMode, 'read'),
        ));
      }
    });
    return { repo, owner, perm: await this.access.repoPermission(repo, owner, actor) };
  }

  /** The pending transfer of one repository for its `repo_transfer` field; null when none is pending. */
  async viewOf(repoId: number): Promise<TransferView | null> {
    const t = await this.pendingOf(repoId);
    if (!t) return null;
    const { db } = this.deps;
    const people = await db.select().from(users).where(inArray(users.id, [t.doerId, t.recipientId]));
    const teamRows = t.teamIds.length
      ? await db.select().from(teams).where(and(inArray(teams.id, t.teamIds), eq(teams.orgId, t.recipientId)))
      : [];
    const modes = await this.teams.unitsOf(teamRows.map((r) => r.id));
    const order = new Map(t.teamIds.map((id, i) => [id, i]));
    return {
      doer: people.find((p) => p.id === t.doerId)!,
      recipient: people.find((p) => p.id === t.recipientId)!,
      teams: teamRows.sort((a, b) => order.get(a.id)! - order.get(b.id)!).map((team) => ({ team, units: modes.get(team.id)! })),
    };
  }

  private async pendingOf(repoId: number): Promise<RepoTransferRow | undefined> {
    const [row] = await this.deps.db.select().from(repoTransfers).where(eq(repoTransfers.repoId, repoId));
    return row;
  }

  /** The user it is addressed to or, for an organization, whoever may create repositories in it (admins no more than others). */
  private async isRecipient(recipientId: number, actor: UserRow): Promise<boolean> {
    if (recipientId === actor.id) return true;
    const [recipient] = await this.deps.db.select().from(users).where(eq(users.id, recipientId));
    return recipient?.type === 'Organization' && (await this.orgs.canCreateRepo(recipient, { ...actor, isAdmin: false }));
  }

  /** Gitea's order: teams only for an organization (422), each must exist (422) and be the organization's (403). */
  private async checkTeams(target: UserRow, ids: number[] | null | undefined): Promise<number[]> {
    if (ids === undefined || ids === null) return [];
    if (target.type !== 'Organization') throw new Invalid('repos can only be transferred to teams for organizations');
    const wanted = [...new Set(ids)];
    const valid = wanted.filter((id) => Number.isSafeInteger(id) && id > 0);
    const rows = valid.length ? await this.deps.db.select().from(teams).where(inArray(teams.id, valid)) : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of wanted) {
      const team = byId.get(id);
      if (!team) throw new Invalid(`team ${id} not found`);
      if (team.orgId !== target.id) throw new Forbidden(`team ${id} belongs not to org ${target.id}`);
    }
    return wanted;
  }

  /** A repository row of that name, or a folder left on disk without one, keeps the name taken (Gitea: 422). */
  private async checkNameFree(target: UserRow, repo: RepoRow): Promise<void> {
    const [taken] = await this.deps.db
      .select({ id: repositories.id })
      .from(repositories)
      .where(and(eq(repositories.ownerId, target.id), eq(repositories.lowerName, repo.lowerName)));
    const { dataDir } = this.deps.config;
    if (taken || existsSync(repoDir(dataDir, target.name, repo.name)) || existsSync(wikiDir(dataDir, target.name, repo.name))) {
      throw alreadyExists(target, repo);
    }
  }

  /**
   * Moves the repository from `from` to `to` in one transaction: the owner row (the unique
   * (owner, lower_name) index decides races), team access (the old organization's teams lose it, the
   * given teams of the new one get it), the collaborations of those who now own it, the pending row
   * (`pendingId`: it must still be there), and last the folders, put back if the transaction fails.
   */
  private async move(repo: RepoRow, from: UserRow, to: UserRow, teamIds: number[], actor: UserRow, pendingId?: number): Promise<RepoRow> {
    const { dataDir } = this.deps.config;
    const folders = [
      [repoDir(dataDir, from.name, repo.name), repoDir(dataDir, to.name, repo.name)],
      [wikiDir(dataDir, from.name, repo.name), wikiDir(dataDir, to.name, repo.name)],
    ] as const;
    const moved: Array<readonly [string, string]> = [];
    try {
      return await withTx(this.deps.db, async (tx) => {
        if (pendingId !== undefined) {
          const gone = await tx.delete(repoTransfers).where(eq(repoTransfers.id, pendingId)).returning({ id: repoTransfers.id });
          if (gone.length === 0) throw new NotFound();
        } else {
          const [pending] = await tx.select({ id: repoTransfers.id }).from(repoTransfers).where(eq(repoTransfers.repoId, repo.id));
          if (pending) throw inProgress(from, repo);
        }
        const [row] = await tx
          .update(repositories)
          .set({ ownerId: to.id, updatedAt: new Date() })
          .where(and(eq(repositories.id, repo.id), eq(repositories.ownerId, from.id)))
          .returning();
        if (!row) throw new Conflict('the repository changed owner meanwhile');
        // The old owner's name for it keeps leading here (Gitea's NewRedirect on transfer).
        await recordRepoRedirect(tx, from.id, repo.name, repo.id);
        await tx.delete(teamRepos).where(eq(teamRepos.repoId, repo.id));
        if (to.type === 'Organization' && teamIds.length) {
          // Teams deleted since the transfer was offered are skipped.
          const still = await tx.select({ id: teams.id }).from(teams).where(and(inArray(teams.id, teamIds), eq(teams.orgId, to.id)));
          if (still.length) await tx.insert(teamRepos).values(still.map((t) => ({ teamId: t.id, repoId: repo.id, orgId: to.id })));
        }
        await tx.delete(collaborations).where(and(eq(collaborations.repoId, repo.id), inArray(collaborations.userId, newOwners(tx, to))));
        await recordEvent(this.deps, tx, {
          type: 'repository', action: 'transferred', repoName: repo.name, oldOwnerName: from.name, ...inRepo(row, actor.id),
          activity: { opType: 'transfer_repo', content: `${from.name}/${repo.name}` },
        });
        for (const [src, dst] of folders) {
          if (!existsSync(src)) continue;
          mkdirSync(dirname(dst), { recursive: true });
          renameSync(src, dst);
          moved.push([src, dst]);
        }
        return row;
      });
    } catch (err) {
      for (const [src, dst] of moved.reverse()) renameSync(dst, src);
      if (isUniqueViolation(err)) throw alreadyExists(to, repo);
      throw err;
    }
  }
}

/** Who owns a repository of `to`: the user, or the members of the organization's owner teams. */
function newOwners(tx: Db, to: UserRow) {
  if (to.type !== 'Organization') return tx.select({ id: users.id }).from(users).where(eq(users.id, to.id));
  return tx
    .select({ id: teamMembers.userId })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teams.orgId, to.id), eq(teams.accessMode, 'owner')));
}
