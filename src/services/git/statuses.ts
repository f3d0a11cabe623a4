// Commit statuses: CI systems report the state of a commit per context; readers list them and ask for
// the combined state (the latest status of each context). Rows are never updated; a new report of a
// context supersedes the previous one by its higher per-commit number.
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { EventEmitter } from 'node:events';
import type { Db } from '../../db/client.js';
import { commitStatuses, commitStatusIndexes, users, type CommitStatusRow, type RepoRow, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { readCommit, type CommitData } from '../../git/objects.js';
import { resolveCommit } from '../../git/refs.js';
import { canRead } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Invalid, NotFound, RepoArchived } from '../errors.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import type { BranchService } from './branches.js';
import { requireCodeWriter } from './branches.js';
import { ruleMatches } from './branchProtections.js';

/** Emits 'queued' after a status was written in this process (the auto-merge worker looks then). */
export const statusReported = new EventEmitter();

export const commitStatusStates = ['pending', 'success', 'error', 'failure', 'warning', 'skipped'] as const;
export type CommitStatusState = (typeof commitStatusStates)[number];

/** Gitea's precedence: the lower, the worse; the combined state is the worst of the contexts' latest. */
const rank: Record<string, number> = { error: 0, failure: 1, warning: 2, pending: 3, success: 4, skipped: 5 };

/**
 * The combined state of the contexts' latest states: the worst, where `skipped` counts as success unless
 * every context was skipped; '' when there is none (Gitea's answer for a commit without statuses).
 */
export function combinedState(states: readonly string[]): string {
  if (states.length === 0) return '';
  if (states.every((s) => s === 'skipped')) return 'skipped';
  let worst = 'success';
  for (const s of states) if ((rank[s] ?? 0) < rank[worst]!) worst = s;
  return worst;
}

/** The latest status of each context of a commit (one index range per context). */
function latestStates(db: Db, repoId: number, sha: string) {
  const t = commitStatuses;
  return db
    .selectDistinctOn([t.context], { context: t.context, state: t.state })
    .from(t)
    .where(and(eq(t.repoId, repoId), eq(t.sha, sha)))
    .orderBy(t.context, desc(t.index));
}

/** The combined state of a commit's statuses (the latest of each context), '' when it has none. */
export async function commitState(db: Db, repoId: number, sha: string): Promise<string> {
  return combinedState((await latestStates(db, repoId, sha)).map((r) => r.state));
}

/**
 * The state of the contexts a protection rule requires (globs): each must match a latest status, the
 * worst of them decides; a required context without a status is pending (Gitea's
 * MergeRequiredContextsCommitStatus).
 */
export async function requiredState(db: Db, repoId: number, sha: string, patterns: string[]): Promise<string> {
  const latest = await latestStates(db, repoId, sha);
  const perPattern = patterns.map((p) => {
    const matched = latest.filter((s) => ruleMatches(p, s.context)).map((s) => s.state);
    return matched.length ? combinedState(matched) : 'pending';
  });
  return combinedState(perPattern);
}

export type StatusSort = 'oldest' | 'recentupdate' | 'leastupdate' | 'leastindex' | 'highestindex';

/** Gitea's orders (its `leastindex` and `highestindex` are inverted; kept). Statuses are never updated: updated = created. */
function orderOf(sort: StatusSort | undefined): SQL[] {
  const t = commitStatuses;
  switch (sort) {
    case 'oldest':
    case 'leastupdate':
      return [asc(t.createdAt), asc(t.index)];
    case 'leastindex':
      return [desc(t.index)];
    case 'highestindex':
      return [asc(t.index)];
    default:
      return [desc(t.createdAt), desc(t.index)];
  }
}

/** A status with its creator (undefined when the account is gone: shown as the ghost). */
export interface StatusView {
  row: CommitStatusRow;
  creator: UserRow | undefined;
}

/** Absolute http(s) URL, or nothing. */
function checkTargetUrl(raw: string): string {
  if (raw === '') return raw;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Invalid(`[target_url]: "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Invalid(`[target_url]: "${raw}" is not an http or https URL`);
  return raw;
}

/** The next number of a commit's statuses: one upsert, so concurrent reporters never share one. */
async function nextIndex(tx: Db, repoId: number, sha: string): Promise<number> {
  const [row] = await tx
    .insert(commitStatusIndexes)
    .values({ repoId, sha, maxIndex: 1 })
    .onConflictDoUpdate({ target: [commitStatusIndexes.repoId, commitStatusIndexes.sha], set: { maxIndex: sql`${commitStatusIndexes.maxIndex} + 1` } })
    .returning({ maxIndex: commitStatusIndexes.maxIndex });
  return Number(row!.maxIndex);
}

/**
 * Writes a status of `commit` (read before the transaction: the status webhook shows it) and records its
 * event, inside the caller's transaction. The API's create and Actions' job states both come here.
 */
export async function writeStatus(
  deps: ServiceDeps,
  tx: Db,
  repo: RepoRow,
  actorId: number,
  commit: CommitData,
  input: { state: CommitStatusState; targetUrl: string; description: string; context: string },
): Promise<CommitStatusRow> {
  const index = await nextIndex(tx, repo.id, commit.id);
  const [inserted] = await tx
    .insert(commitStatuses)
    .values({ repoId: repo.id, sha: commit.id, index, state: input.state, targetUrl: input.targetUrl, description: input.description.trim(), context: input.context.trim(), creatorId: actorId })
    .returning();
  await recordEvent(deps, tx, {
    type: 'status',
    statusId: inserted!.id,
    sha: commit.id,
    commit: {
      id: commit.id,
      message: commit.message,
      author: { name: commit.author.name, email: commit.author.email, date: commit.author.date.toISOString() },
      committer: { name: commit.committer.name, email: commit.committer.email, date: commit.committer.date.toISOString() },
    },
    ...inRepo(repo, actorId),
  });
  return inserted!;
}

export class StatusService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly branches: BranchService,
  ) {}

  private requireReader(loaded: LoadedRepo): void {
    if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
  }

  /** The commit a branch, tag or commit id names; undefined when none. */
  private async commitOf(loaded: LoadedRepo, ref: string): Promise<string | undefined> {
    if (loaded.repo.isEmpty) return undefined;
    return resolveCommit(this.branches.dir(loaded), ref);
  }

  async create(
    loaded: LoadedRepo,
    actor: UserRow,
    sha: string,
    input: { state: CommitStatusState; targetUrl?: string; description?: string; context?: string },
  ): Promise<StatusView> {
    requireCodeWriter(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    const ref = sha.trim();
    if (!ref) throw new BadRequest('sha not given');
    const targetUrl = checkTargetUrl((input.targetUrl ?? '').trim());
    const commit = await this.commitOf(loaded, ref);
    if (!commit) throw new Invalid(`[sha]: commit "${ref}" does not exist`);
    // Read before the transaction (no git inside it): the status webhook shows the commit.
    const data = await readCommit(this.branches.dir(loaded), commit);
    const row = await withTx(this.deps.db, (tx) =>
      writeStatus(this.deps, tx, loaded.repo, actor.id, data, { state: input.state, targetUrl, description: input.description ?? '', context: input.context ?? '' }),
    );
    statusReported.emit('queued');
    return { row, creator: actor };
  }

  /**
   * A commit's statuses (spec 40): `{sha}` is expanded to the full commit id when it names one (a short id,
   * a branch or a tag); otherwise it is used as given, which finds nothing.
   */
  async listBySha(loaded: LoadedRepo, sha: string, opts: { sort?: StatusSort; state?: string; limit: number; offset: number }) {
    this.requireReader(loaded);
    const given = sha.trim();
    if (!given) throw new BadRequest('ref/sha not given');
    const commit = (await this.commitOf(loaded, given)) ?? given;
    return { sha: commit, ...(await this.list(loaded.repo.id, commit, opts)) };
  }

  /** The statuses of the commit a branch, tag or commit id names; 404 when it names none. */
  async listByRef(loaded: LoadedRepo, ref: string, opts: { sort?: StatusSort; state?: string; limit: number; offset: number }) {
    this.requireReader(loaded);
    const commit = await this.requireRef(loaded, ref);
    return { sha: commit, ...(await this.list(loaded.repo.id, commit, opts)) };
  }

  private async requireRef(loaded: LoadedRepo, ref: string): Promise<string> {
    const given = ref.trim();
    if (!given) throw new BadRequest('ref/sha not given');
    const commit = await this.commitOf(loaded, given);
    if (!commit) throw new NotFound(`ref does not exist [ref: ${given}]`);
    return commit;
  }

  private async list(repoId: number, sha: string, opts: { sort?: StatusSort; state?: string; limit: number; offset: number }) {
    const t = commitStatuses;
    const where = and(eq(t.repoId, repoId), eq(t.sha, sha), opts.state ? eq(t.state, opts.state) : undefined);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(t).where(where).orderBy(...orderOf(opts.sort)).limit(opts.limit).offset(opts.offset),
      this.deps.db.select({ n: count() }).from(t).where(where),
    ]);
    return { rows: await this.withCreators(rows), total: Number(total?.n ?? 0) };
  }

  /**
   * The combined status: the latest status of each context, newest first, a page of them; the combined
   * state over every context; the number of contexts.
   */
  async combined(loaded: LoadedRepo, ref: string, page: { limit: number; offset: number }) {
    this.requireReader(loaded);
    const commit = await this.requireRef(loaded, ref);
    const t = commitStatuses;
    // One row per context, its highest number: an index range per context (commit_statuses_context_idx).
    const latest = this.deps.db
      .selectDistinctOn([t.context], { index: t.index, state: t.state })
      .from(t)
      .where(and(eq(t.repoId, loaded.repo.id), eq(t.sha, commit)))
      .orderBy(t.context, desc(t.index))
      .as('latest');
    const all = await this.deps.db.select().from(latest).orderBy(desc(latest.index));
    const pageIndexes = all.slice(page.offset, page.offset + page.limit).map((r) => r.index);
    const rows = pageIndexes.length
      ? await this.deps.db
          .select()
          .from(t)
          .where(and(eq(t.repoId, loaded.repo.id), eq(t.sha, commit), inArray(t.index, pageIndexes)))
          .orderBy(desc(t.index))
      : [];
    return { sha: commit, state: combinedState(all.map((r) => r.state)), total: all.length, rows: await this.withCreators(rows) };
  }

  private async withCreators(rows: CommitStatusRow[]): Promise<StatusView[]> {
    const ids = [...new Set(rows.map((r) => r.creatorId))];
    const creators = ids.length ? await this.deps.db.select().from(users).where(inArray(users.id, ids)) : [];
    const byId = new Map(creators.map((u) => [u.id, u]));
    return rows.map((row) => ({ row, creator: byId.get(row.creatorId) }));
  }
}
