// Forks: a copy of a repository under another owner that remembers where it came from
// (`repositories.fork_id`); the parent's `num_forks` counts its forks, kept in the fork's transaction.
import { rmSync } from 'node:fs';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { collaborations, repoWatches, repositories, users, type RepoRow, type UserRow } from '../../db/schema/index.js';
import { jsonRow, rowFromJson } from '../../db/jsonRows.js';
import { withTx } from '../../db/tx.js';
import { cloneBareLocal } from '../../git/clone.js';
import { beginCreate } from '../../git/folderMoves.js';
import { FolderJournals } from './folderJournals.js';
import { initBare } from '../../git/init.js';
import { repoDir } from '../../git/paths.js';
import { canRead, canSeeRepo, type RepoPermission } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Forbidden, Invalid, isUniqueViolation, NotFound } from '../errors.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import { checkRepoName } from '../names.js';
import type { OrgService } from '../orgs/orgs.js';
import { permissionFromColumns, repoGrantFields, type AccessService } from './access.js';
import { visibleTo } from './repoQuery.js';
import type { LoadedRepo, RepoListRow } from './loadedRepo.js';

export interface ForkInput {
  organization?: string | null;
  name?: string | null;
}

/** A repository's parent as the caller sees it (absent when not a fork or the caller may not see it). */
export interface RepoParent {
  repo: RepoRow;
  owner: UserRow;
  perm: RepoPermission;
}

export class ForkService {
  private readonly journals: FolderJournals;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly orgs: OrgService,
  ) {
    this.journals = new FolderJournals(deps);
  }

  /** Forks `loaded` for `actor` into the actor's account or `input.organization`. Git first, then the rows. */
  async fork(loaded: LoadedRepo, actor: UserRow, input: ForkInput): Promise<{ repo: RepoRow; owner: UserRow; perm: RepoPermission }> {
    const { db, config } = this.deps;
    const parent = loaded.repo;
    if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
    let owner = actor;
    if (input.organization != null) {
      const org = await this.orgs.byName(input.organization);
      if (!org) throw new Invalid(`organization does not exist [name: ${input.organization}]`);
      if (!(await this.orgs.canCreateRepo(org, actor))) throw new Forbidden(`User is not allowed to create repositories in organisation '${org.name}'`);
      owner = org;
    }
    const name = input.name ?? parent.name;
    checkRepoName(name);
    const lowerName = name.toLowerCase();
    const conflict = () => new Conflict('The repository with the same name already exists.');

    const [existing] = await db.select({ id: repositories.id, name: repositories.name }).from(repositories)
      .where(and(eq(repositories.ownerId, owner.id), eq(repositories.forkId, parent.id)));
    if (existing) throw new Conflict(`repository is already forked by user [uname: ${owner.name}, repo path: ${loaded.owner.name}/${parent.name}, fork path: ${owner.name}/${existing.name}]`);
    const [taken] = await db.select({ id: repositories.id }).from(repositories)
      .where(and(eq(repositories.ownerId, owner.id), eq(repositories.lowerName, lowerName)));
    if (taken) throw conflict();
    const limit = owner.maxRepoCreation >= 0 ? owner.maxRepoCreation : config.maxCreationLimit;
    if (!actor.isAdmin && limit >= 0) {
      const [n] = await db.select({ n: count() }).from(repositories).where(eq(repositories.ownerId, owner.id));
      if ((n?.n ?? 0) >= limit) throw new Conflict(`user has reached maximum limit of repositories [limit: ${limit}]`);
    }

    const journal = await beginCreate(config.dataDir, owner.id, lowerName, repoDir(config.dataDir, owner.name, name), this.journals);
    const { scratch } = journal;
    try {
      if (parent.isEmpty) await initBare(scratch, { objectFormat: parent.objectFormat, defaultBranch: parent.defaultBranch });
      else await cloneBareLocal(repoDir(config.dataDir, loaded.owner.name, parent.name), scratch);
      const repo = await withTx(db, async (tx) => {
        // The parent's row first: a concurrent delete of it waits, or has already happened (then 404).
        const [current] = await tx.update(repositories).set({ numForks: sql`${repositories.numForks} + 1` })
          .where(eq(repositories.id, parent.id)).returning();
        if (!current) throw new NotFound();
        const [row] = await tx.insert(repositories).values({
          ownerId: owner.id,
          name,
          lowerName,
          description: current.description,
          isPrivate: current.isPrivate || loaded.owner.visibility === 'private',
          isEmpty: current.isEmpty,
          forkId: current.id,
          defaultBranch: current.defaultBranch,
          objectFormat: current.objectFormat,
          numBranches: current.numBranches,
          sizeBytes: current.sizeBytes,
          licenses: current.licenses,
          // Its creator watches it (inserted below).
          numWatches: 1,
        }).returning();
        const fork = row!;
        if (owner.type === 'Organization') {
          const perm = await this.access.repoPermissionIn(tx, fork, owner, { ...actor, isAdmin: false });
          if (perm.mode !== 'admin' && perm.mode !== 'owner') {
            await tx.insert(collaborations).values({ repoId: fork.id, userId: actor.id, accessMode: 'admin' });
          }
        }
        await tx.insert(repoWatches).values({ userId: actor.id, repoId: fork.id });
        await recordEvent(this.deps, tx, { type: 'fork', forkId: fork.id, ...inRepo(current, actor.id) });
        await recordEvent(this.deps, tx, {
          type: 'repository', action: 'created', repoName: fork.name, ...inRepo(fork, actor.id), activity: { opType: 'create_repo' },
        });
        await journal.place(tx);
        return fork;
      });
      await journal.committed();
      return { repo, owner, perm: await this.access.repoPermission(repo, owner, actor) };
    } catch (err) {
      await journal.abandon();
      if (isUniqueViolation(err)) throw conflict();
      throw err;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  /** The forks of `loaded` that `viewer` may see, oldest first, with the viewer's permission on each. */
  async list(loaded: LoadedRepo, viewer: UserRow | null, page: { limit: number; offset: number }): Promise<{ rows: RepoListRow[]; total: number }> {
    const { db } = this.deps;
    const where = and(eq(repositories.forkId, loaded.repo.id), visibleTo(viewer));
    const [rows, [total]] = await Promise.all([
      db.select({ repoJson: jsonRow('repositories'), ownerJson: jsonRow('users'), ...repoGrantFields(viewer?.id ?? 0) })
        .from(repositories).innerJoin(users, eq(users.id, repositories.ownerId))
        .where(where).orderBy(asc(repositories.createdAt), asc(repositories.id)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(where),
    ]);
    return {
      rows: rows.map(({ repoJson, ownerJson, ...grants }) => {
        const repo = rowFromJson(repositories, repoJson);
        const owner = rowFromJson(users, ownerJson);
        return { repo, owner, perm: permissionFromColumns(repo, owner, viewer, grants) };
      }),
      total: Number(total?.n ?? 0),
    };
  }

  /**
   * The parents `viewer` may see of these repositories, by parent id: a fixed number of queries however
   * many repositories (none when no repository is a fork).
   */
  async parentsOf(repos: RepoRow[], viewer: UserRow | null): Promise<Map<number, RepoParent>> {
    const ids = [...new Set(repos.map((r) => r.forkId).filter((id): id is number => id != null))];
    if (ids.length === 0) return new Map();
    const reach = await this.access.reposById(ids, viewer);
    return new Map([...reach].filter(([, p]) => canSeeRepo(p.perm)));
  }

  /** The parent of one repository, if it is a fork and `viewer` may see the parent. */
  async parentOf(repo: RepoRow, viewer: UserRow | null): Promise<RepoParent | undefined> {
    if (repo.forkId == null) return undefined;
    return (await this.parentsOf([repo], viewer)).get(repo.forkId);
  }
}

