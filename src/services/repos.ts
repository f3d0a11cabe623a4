// Repositories: look-up with the caller's permission, settings, deletion, lists and search.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, count, desc, eq, ilike, not, sql, type SQL } from 'drizzle-orm';
import { repositories, users, type ExternalTrackerConfig, type RepoRow, type UserRow } from '../db/schema/index.js';
import { withTx } from '../db/tx.js';
import { listBranches, setHead } from '../git/refs.js';
import { repoDir, wikiDir } from '../git/paths.js';
import { canSeeRepo, isRepoAdmin, type RepoPermission } from '../permissions/repo.js';
import type { AccessService } from './access.js';
import type { ServiceDeps } from './context.js';
import { Conflict, Forbidden, Invalid, NotFound, RepoArchived, isUniqueViolation } from './errors.js';
import { checkRepoName, isValidRefName } from './names.js';
import { createRepository, type CreateRepoInput } from './repoCreate.js';
import { explicitAccess, visibleTo } from './repoQuery.js';

export interface LoadedRepo {
  repo: RepoRow;
  owner: UserRow;
  perm: RepoPermission;
}

export interface EditRepoInput {
  name?: string;
  description?: string;
  website?: string;
  private?: boolean;
  template?: boolean;
  archived?: boolean;
  defaultBranch?: string;
  units?: Partial<Pick<RepoRow, 'hasIssues' | 'hasWiki' | 'hasPullRequests' | 'hasProjects' | 'hasReleases' | 'hasPackages' | 'hasActions' | 'hasCode'>>;
  settings?: Partial<Pick<RepoRow,
    | 'projectsMode' | 'ignoreWhitespaceConflicts' | 'allowMergeCommits' | 'allowRebase' | 'allowRebaseExplicit'
    | 'allowSquashMerge' | 'allowFastForwardOnlyMerge' | 'allowManualMerge' | 'autodetectManualMerge'
    | 'allowRebaseUpdate' | 'defaultDeleteBranchAfterMerge' | 'defaultMergeStyle' | 'defaultAllowMaintainerEdit'
    | 'enableTimeTracker' | 'allowOnlyContributorsToTrackTime' | 'enableIssueDependencies'>>;
  externalTracker?: ExternalTrackerConfig | null;
  externalWikiUrl?: string | null;
}

export interface SearchInput {
  q?: string;
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
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
  ) {}

  create(owner: UserRow, actor: UserRow, input: CreateRepoInput): Promise<RepoRow> {
    return createRepository(this.deps, this.access, owner, actor, input);
  }

  /** The repository with its owner and the caller's permission; 404 when missing or invisible. */
  async load(ownerName: string, name: string, actor: UserRow | null): Promise<LoadedRepo> {
    const [row] = await this.deps.db
      .select({ repo: repositories, owner: users })
      .from(repositories)
      .innerJoin(users, eq(users.id, repositories.ownerId))
      .where(and(eq(users.lowerName, ownerName.toLowerCase()), eq(repositories.lowerName, name.toLowerCase())));
    if (!row) throw new NotFound();
    const perm = await this.access.repoPermission(row.repo, row.owner, actor);
    if (!canSeeRepo(perm)) throw new NotFound();
    return { ...row, perm };
  }

  async ownerOf(repo: RepoRow): Promise<UserRow> {
    const [owner] = await this.deps.db.select().from(users).where(eq(users.id, repo.ownerId));
    return owner!;
  }

  async edit(loaded: LoadedRepo, input: EditRepoInput): Promise<RepoRow> {
    const { repo, owner, perm } = loaded;
    if (!isRepoAdmin(perm)) throw new Forbidden('user should be an owner or a collaborator with admin write of a repository');
    const onlyUnarchive = input.archived === false && Object.entries(input).every(([k, v]) => k === 'archived' || v === undefined);
    if (repo.isArchived && !onlyUnarchive && input.archived !== false) throw new RepoArchived();
    const set: Partial<RepoRow> = { ...input.units, ...input.settings, updatedAt: new Date() };
    if (input.description !== undefined) set.description = input.description;
    if (input.website !== undefined) set.website = input.website;
    if (input.private !== undefined) set.isPrivate = input.private;
    if (input.template !== undefined) set.isTemplate = input.template;
    if (input.externalTracker !== undefined) set.externalTracker = input.externalTracker;
    if (input.externalWikiUrl !== undefined) set.externalWikiUrl = input.externalWikiUrl;
    if (input.archived !== undefined && input.archived !== repo.isArchived) {
      set.isArchived = input.archived;
      set.archivedAt = input.archived ? new Date() : null;
    }
    const dir = repoDir(this.deps.config.dataDir, owner.name, repo.name);
    if (input.defaultBranch !== undefined && input.defaultBranch !== repo.defaultBranch) {
      if (!isValidRefName(input.defaultBranch)) throw new Invalid(`[default_branch]: invalid branch name "${input.defaultBranch}"`);
      if (!repo.isEmpty && !(await listBranches(dir)).includes(input.defaultBranch)) {
        throw new NotFound();
      }
      await setHead(dir, input.defaultBranch);
      set.defaultBranch = input.defaultBranch;
    }
    const rename = input.name !== undefined && input.name !== repo.name ? input.name : undefined;
    if (rename !== undefined) {
      checkRepoName(rename);
      set.name = rename;
      set.lowerName = rename.toLowerCase();
    }
    const from = dir;
    const to = rename !== undefined ? repoDir(this.deps.config.dataDir, owner.name, rename) : dir;
    const movesFolder = from !== to;
    let moved = false;
    try {
      return await withTx(this.deps.db, async (tx) => {
        if (rename !== undefined) {
          const [taken] = await tx
            .select({ id: repositories.id })
            .from(repositories)
            .where(and(eq(repositories.ownerId, owner.id), eq(repositories.lowerName, rename.toLowerCase()), not(eq(repositories.id, repo.id))));
          if (taken) throw new Conflict('The repository with the same name already exists.');
        }
        const [row] = await tx.update(repositories).set(set).where(eq(repositories.id, repo.id)).returning();
        if (movesFolder) {
          // The updated row holds the new name, so no one else can move into it meanwhile.
          renameSync(from, to);
          moved = true;
          const wikiFrom = wikiDir(this.deps.config.dataDir, owner.name, repo.name);
          if (existsSync(wikiFrom)) renameSync(wikiFrom, wikiDir(this.deps.config.dataDir, owner.name, rename!));
        }
        return row!;
      });
    } catch (err) {
      if (moved) renameSync(to, from);
      if (isUniqueViolation(err)) throw new Conflict('The repository with the same name already exists.');
      throw err;
    }
  }

  /** Owner, organization owner or site admin; the rows go first, then the folders (moved aside before, back on failure). */
  async delete(loaded: LoadedRepo): Promise<void> {
    const { repo, owner, perm } = loaded;
    if (perm.mode !== 'owner') throw new Forbidden('user should be an owner of the repository');
    const { dataDir } = this.deps.config;
    const trash = join(dataDir, 'tmp', `deleted-${randomUUID()}`);
    mkdirSync(trash, { recursive: true });
    const folders = [repoDir(dataDir, owner.name, repo.name), wikiDir(dataDir, owner.name, repo.name)].filter(existsSync);
    const aside = folders.map((f, i) => [f, join(trash, String(i))] as const);
    for (const [f, t] of aside) renameSync(f, t);
    try {
      await this.deps.db.delete(repositories).where(eq(repositories.id, repo.id));
    } catch (err) {
      for (const [f, t] of aside) renameSync(t, f);
      rmSync(trash, { recursive: true, force: true });
      throw err;
    }
    rmSync(trash, { recursive: true, force: true });
  }

  /** Repositories the user owns or reaches by collaboration or team. */
  async listAccessible(user: UserRow, page: { limit: number; offset: number }) {
    const where = explicitAccess(this.deps.db, user.id);
    return this.page(where, page, asc(repositories.id));
  }

  async search(viewer: UserRow | null, input: SearchInput, page: { limit: number; offset: number }) {
    const { db } = this.deps;
    const conds: Array<SQL | undefined> = [visibleTo(db, viewer)];
    if (input.q?.trim()) conds.push(ilike(repositories.lowerName, `%${input.q.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
    if (input.uid) {
      conds.push(input.exclusive ? eq(repositories.ownerId, input.uid) : explicitAccess(db, input.uid));
      if (input.mode === 'collaborative') conds.push(not(eq(repositories.ownerId, input.uid)));
    }
    if (input.includePrivate === false) conds.push(eq(repositories.isPrivate, false));
    if (input.isPrivate !== undefined) conds.push(eq(repositories.isPrivate, input.isPrivate));
    if (input.template !== undefined) conds.push(eq(repositories.isTemplate, input.template));
    if (input.archived !== undefined) conds.push(eq(repositories.isArchived, input.archived));
    if (input.mode === 'mirror') conds.push(eq(repositories.isMirror, true));
    if (input.mode === 'source') conds.push(eq(repositories.isMirror, false));
    if (input.mode === 'fork') conds.push(sql`false`); // anvil has no forks yet
    const column = sortColumns[input.sort ?? 'alpha'] ?? repositories.lowerName;
    const order = input.order === 'desc' ? desc(column) : asc(column);
    return this.page(and(...conds)!, page, order);
  }

  private async page(where: SQL, page: { limit: number; offset: number }, order: SQL) {
    const { db } = this.deps;
    const [rows, [total]] = await Promise.all([
      db.select({ repo: repositories, owner: users }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId))
        .where(where).orderBy(order, asc(repositories.id)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }
}

