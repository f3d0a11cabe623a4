// Repositories: look-up with the caller's permission, settings, deletion, lists and search.
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, not, or, sql, type SQL } from 'drizzle-orm';
import { activities, activityTallies, hooks, lfsMetaObjects, repoStatus, repoTransfers, repositories, stars, users, type RepoRow, type UserRow } from '../../db/schema/index.js';
import { storeFor } from '../../storage/index.js';
import { lfsKey } from '../../storage/lfsObjects.js';
import { jsonRow, rowFromJson } from '../../db/jsonRows.js';
import { withTx } from '../../db/tx.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import { moveAsideForDelete } from '../../git/folderMoves.js';
import { FolderJournals } from './folderJournals.js';
import { repoDir, wikiDir } from '../../git/paths.js';
import { canSeeRepo } from '../../permissions/repo.js';
import { permissionFromColumns, repoGrantFields, taskPermission, type AccessService, type RepoGrantColumns } from './access.js';
import type { ServiceDeps } from '../context.js';
import { containsPattern } from '../like.js';
import { Forbidden, NotFound } from '../errors.js';
import type { LoadedRepo, RepoListRow } from './loadedRepo.js';
import { closePullsFromRepo } from '../pulls/forkPulls.js';
import { createRepository, type CreateExtras, type CreateRepoInput } from './repoCreate.js';
import { RepoAvatarService } from './repoAvatars.js';
import { editRepository, type EditRepoInput } from './repoEdit.js';
import { explicitAccess, visibleTo } from './repoQuery.js';
import type { CommitSigning } from '../keys/commitSigning.js';

export type { EditRepoInput };
export type { LoadedRepo, RepoListRow } from './loadedRepo.js';

// A repository and its owner as two JSON columns (see src/db/jsonRows.ts).
const jsonRepoAndOwner = { repoJson: jsonRow('repositories'), ownerJson: jsonRow('users') };
function fromJsonRepoAndOwner<T extends { repoJson: Record<string, unknown>; ownerJson: Record<string, unknown> }>({ repoJson, ownerJson, ...rest }: T) {
  return { repo: rowFromJson(repositories, repoJson), owner: rowFromJson(users, ownerJson), ...rest };
}

function withPermissions(rows: Array<{ repo: RepoRow; owner: UserRow } & RepoGrantColumns>, actor: UserRow | null): RepoListRow[] {
  return rows.map((r) => ({ repo: r.repo, owner: r.owner, perm: permissionFromColumns(r.repo, r.owner, actor, r) }));
}

export interface SearchInput {
  q?: string;
  /** `q`'s keywords are exact topic names (Gitea's TopicOnly). */
  topicOnly?: boolean;
  /** `q`'s keywords are also looked for in the description. */
  includeDescription?: boolean;
  uid?: number;
  exclusive?: boolean;
  includePrivate?: boolean;
  isPrivate?: boolean;
  template?: boolean;
  archived?: boolean;
  mode?: 'fork' | 'source' | 'mirror' | 'collaborative';
  sort?: string;
  order?: 'asc' | 'desc';
}

/**
 * Gitea's keyword search: `q` is split at commas; with `topicOnly` a keyword must be one of the topics,
 * otherwise it may be part of the name or of a topic (or of the description, when asked).
 */
function keywordCondition(q: string, input: SearchInput): SQL {
  const keywords = [...new Set(q.toLowerCase().split(',').map((k) => k.trim()).filter((k) => k !== ''))];
  if (input.topicOnly) return sql`${repositories.topics} && ${sql`array[${sql.join(keywords.map((k) => sql`${k}`), sql`, `)}]::text[]`}`;
  const parts = keywords.flatMap((k) => {
    const pattern = containsPattern(k);
    return [
      ilike(repositories.lowerName, pattern),
      sql`exists (select 1 from unnest(${repositories.topics}) as t(name) where t.name like ${pattern})`,
      ...(input.includeDescription ? [sql`lower(${repositories.description}) like ${pattern}`] : []),
    ];
  });
  return or(...parts)!;
}

const sortColumns: Record<string, SQL | typeof repositories.lowerName> = {
  alpha: repositories.lowerName,
  created: sql`${repositories.createdAt}`,
  updated: sql`${repositories.updatedAt}`,
  size: sql`${repositories.sizeBytes}`,
  git_size: sql`${repositories.sizeBytes}`,
  lfs_size: sql`${repositories.sizeBytes}`,
  stars: sql`${repositories.numStars}`,
  forks: sql`${repositories.numForks}`,
  id: sql`${repositories.id}`,
};

export class RepoService {
  /** The journals of this service's folder moves, and the mending of those dead processes left. */
  readonly journals: FolderJournals;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly signing: CommitSigning,
  ) {
    this.journals = new FolderJournals(deps);
  }

  create(owner: UserRow, actor: UserRow, input: CreateRepoInput, extras?: CreateExtras): Promise<RepoRow> {
    return createRepository(this.deps, this.access, this.signing, owner, actor, input, this.journals, extras);
  }

  /** The repository with its owner and the caller's permission; 404 when missing or invisible. */
  /** The repository, its owner and the caller's permission: one prepared query, the hot path of most requests. */
  /** `ignoreVisibility`: found whoever may see it (a deploy key decides by itself); `perm` is then the caller's all the same. */
  /** `beingMigrated`: also a repository being migrated (a placeholder: only its JSON and its page show it; to all else it is 404). */
  async load(ownerName: string, name: string, actor: UserRow | null, opts: { ignoreVisibility?: boolean; beingMigrated?: boolean } = {}): Promise<LoadedRepo> {
    const [json] = await this.byName.execute({ owner: ownerName.toLowerCase(), name: name.toLowerCase(), actor: actor?.id ?? 0 });
    if (!json) throw new NotFound();
    const row = fromJsonRepoAndOwner(json);
    if (row.repo.status !== repoStatus.ready && !opts.beingMigrated) throw new NotFound();
    const perm = permissionFromColumns(row.repo, row.owner, actor, row);
    if (!opts.ignoreVisibility && !canSeeRepo(perm)) throw new NotFound();
    return { repo: row.repo, owner: row.owner, perm, transferPending: row.transferPending };
  }

  /**
   * A repository as an Actions task's token reaches it: its own repository with write access to every
   * enabled unit (read for a fork's pull request), any other only as an anonymous caller would.
   */
  async loadForTask(ownerName: string, name: string, task: { repoId: number; write: boolean }): Promise<LoadedRepo> {
    const loaded = await this.load(ownerName, name, null, { ignoreVisibility: true });
    if (loaded.repo.id === task.repoId) return { ...loaded, perm: taskPermission(loaded.repo, task.write) };
    if (!canSeeRepo(loaded.perm)) throw new NotFound();
    return loaded;
  }

  private byNameQuery: ReturnType<RepoService['prepareByName']> | undefined;
  private get byName() {
    return (this.byNameQuery ??= this.prepareByName());
  }

  private prepareByName() {
    return this.deps.db
      .select({
        ...jsonRepoAndOwner, ...repoGrantFields(),
        transferPending: sql<boolean>`exists (select 1 from ${repoTransfers} rt where rt.repo_id = ${sql.raw('"repositories"."id"')})`,
      })
      .from(repositories)
      .innerJoin(users, eq(users.id, repositories.ownerId))
      .where(and(eq(users.lowerName, sql.placeholder('owner')), eq(repositories.lowerName, sql.placeholder('name'))))
      .prepare('repo_by_name');
  }

  async ownerOf(repo: RepoRow): Promise<UserRow> {
    const [owner] = await this.deps.db.select().from(users).where(eq(users.id, repo.ownerId));
    return owner!;
  }

  edit(loaded: LoadedRepo, actor: UserRow, input: EditRepoInput): Promise<RepoRow> {
    return editRepository(this.deps, loaded, actor, input);
  }

  /**
   * Mends what processes killed in the middle of a repository create or delete left behind, once their
   * journal's lease lapsed (git/folderMoves.ts): folders of an uncommitted delete go back, folders of an
   * uncommitted create go. Answers what it did.
   */
  recoverFolders(limit = 5): Promise<{ taken: number; restored: number; removed: number }> {
    return this.journals.recover(limit);
  }

  /** Owner, organization owner or site admin; the rows go first, then the folders (moved aside before, back on failure). */
  async delete(loaded: LoadedRepo, actor: UserRow): Promise<void> {
    const { repo, owner, perm } = loaded;
    if (perm.mode !== 'owner') throw new Forbidden('user should be the owner of the repo');
    const { dataDir } = this.deps.config;
    // Journalled (git/folderMoves.ts): killed before the commit, a live process moves the folders back.
    const aside = await moveAsideForDelete(dataDir, repo.id, [repoDir(dataDir, owner.name, repo.name), wikiDir(dataDir, owner.name, repo.name)], this.journals);
    let lfsOids: string[] = [];
    let gone: { avatar: string } | undefined;
    try {
      await withTx(this.deps.db, async (tx) => {
        await aside.hold(tx);
        // Its LFS objects: its forks keep them (they read them through it until now); the rest may go.
        lfsOids = (await tx.select({ oid: lfsMetaObjects.oid }).from(lfsMetaObjects).where(eq(lfsMetaObjects.repoId, repo.id))).map((r) => r.oid);
        if (lfsOids.length) {
          await tx.execute(sql`insert into lfs_meta_objects (oid, repo_id, size)
            select m.oid, f.id, m.size from lfs_meta_objects m join repositories f on f.fork_id = m.repo_id
            where m.repo_id = ${repo.id} on conflict do nothing`);
        }
        // Recorded first, while the rows it describes exist; the repository's feed rows go with it.
        await recordEvent(this.deps, tx, { type: 'repository', action: 'deleted', repoName: repo.name, ...inRepo(repo, actor.id) });
        await tx.delete(activities).where(eq(activities.repoId, repo.id));
        await tx.delete(activityTallies).where(eq(activityTallies.repoId, repo.id));
        await tx.delete(hooks).where(eq(hooks.repoId, repo.id));
        // Its open pull requests into other repositories (its parent, mostly) are closed, as in Gitea.
        await closePullsFromRepo(this.deps, tx, repo.id, actor.id);
        // The counters of what goes with it: its parent's forks, its starrers' stars (its forks stay, no longer forks).
        if (repo.forkId != null) {
          await tx.update(repositories).set({ numForks: sql`greatest(${repositories.numForks} - 1, 0)` }).where(eq(repositories.id, repo.forkId));
        }
        await tx.update(users).set({ numStars: sql`greatest(${users.numStars} - 1, 0)` })
          .where(sql`${users.id} in (select ${stars.userId} from ${stars} where ${stars.repoId} = ${repo.id})`);
        [gone] = await tx.delete(repositories).where(eq(repositories.id, repo.id)).returning({ avatar: repositories.avatar });
      });
    } catch (err) {
      await aside.undo();
      throw err;
    }
    await aside.finish();
    if (gone?.avatar) await new RepoAvatarService(this.deps).discard(gone.avatar);
    await this.freeLfsObjects(lfsOids);
  }

  /**
   * After a repository's rows are gone: those of its LFS objects no other repository records leave the
   * store. One that fails to go is logged and left to gc_lfs.
   */
  private async freeLfsObjects(oids: string[]): Promise<void> {
    for (let i = 0; i < oids.length; i += 500) {
      const chunk = oids.slice(i, i + 500);
      const still = new Set((await this.deps.db.select({ oid: lfsMetaObjects.oid }).from(lfsMetaObjects).where(inArray(lfsMetaObjects.oid, chunk))).map((r) => r.oid));
      for (const oid of chunk) {
        if (still.has(oid)) continue;
        await storeFor(this.deps.config, 'lfs').remove(lfsKey(oid)).catch((err: Error) => this.deps.log.warn({ err: err.message, oid }, 'LFS object not removed'));
      }
    }
  }

  /** Repositories the user owns or reaches by collaboration or team, by name (Gitea's default order). */
  /** The caller's own repositories and those a collaboration or a team gives them, each with its permission. */
  async listAccessible(user: UserRow, page: { limit: number; offset: number }): Promise<{ rows: RepoListRow[]; total: number }> {
    const q = (this.accessibleQueries ??= this.prepareAccessible());
    const [rows, [total]] = await Promise.all([q.rows.execute({ actor: user.id, ...page }), q.count.execute({ actor: user.id })]);
    return { rows: withPermissions(rows.map(fromJsonRepoAndOwner), user), total: total?.n ?? 0 };
  }

  private accessibleQueries: ReturnType<RepoService['prepareAccessible']> | undefined;

  private prepareAccessible() {
    const { db } = this.deps;
    const where = explicitAccess(sql.placeholder('actor'));
    return {
      rows: db.select({ ...jsonRepoAndOwner, ...repoGrantFields() })
        .from(repositories).innerJoin(users, eq(users.id, repositories.ownerId))
        .where(where).orderBy(asc(repositories.lowerName), asc(repositories.id))
        .limit(sql.placeholder('limit')).offset(sql.placeholder('offset'))
        .prepare('repos_accessible'),
      count: db.select({ n: count() }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(where).prepare('repos_accessible_count'),
    };
  }

  async search(viewer: UserRow | null, input: SearchInput, page: { limit: number; offset: number }) {
    const { db } = this.deps;
    const conds: Array<SQL | undefined> = [visibleTo(viewer)];
    if (input.q?.trim()) conds.push(keywordCondition(input.q.trim(), input));
    if (input.uid) {
      conds.push(input.exclusive ? eq(repositories.ownerId, input.uid) : explicitAccess(input.uid));
      if (input.mode === 'collaborative') conds.push(not(eq(repositories.ownerId, input.uid)));
    }
    if (input.includePrivate === false) conds.push(eq(repositories.isPrivate, false));
    if (input.isPrivate !== undefined) conds.push(eq(repositories.isPrivate, input.isPrivate));
    if (input.template !== undefined) conds.push(eq(repositories.isTemplate, input.template));
    if (input.archived !== undefined) conds.push(eq(repositories.isArchived, input.archived));
    if (input.mode === 'mirror') conds.push(eq(repositories.isMirror, true));
    if (input.mode === 'source') conds.push(eq(repositories.isMirror, false), isNull(repositories.forkId));
    if (input.mode === 'fork') conds.push(isNotNull(repositories.forkId));
    const column = sortColumns[input.sort ?? 'alpha'] ?? repositories.lowerName;
    // As in Gitea, `order` means nothing without `sort`.
    const order = input.sort && input.order === 'desc' ? desc(column) : asc(column);
    const [rows, [total]] = await Promise.all([
      db.select({ ...jsonRepoAndOwner, ...repoGrantFields(viewer?.id ?? 0) }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId))
        .where(and(...conds)).orderBy(order, asc(repositories.id)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(and(...conds)),
    ]);
    return { rows: withPermissions(rows.map(fromJsonRepoAndOwner), viewer), total: total?.n ?? 0 };
  }
}

