// Branches (their answers list no changed files, so commits are described without them): create (from a branch, tag or commit), list, get, rename, delete — with Gitea's statuses.
import { and, eq, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { branchProtections, lfsMetaObjects, pullRequests, repositories, type RepoRow, type UserRow } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { zeroIdLike } from '../../git/commit.js';
import type { RefChange } from '../../git/pushLog.js';
import type { DomainEvent } from '../events/types.js';
import { recordEvents, recordEventsAlone } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import { refChangeEvents } from './refEvents.js';
import { hasWorkflowFiles } from '../actions/workflowFiles.js';
import { GitError } from '../../git/core.js';
import { describeCommits, type DescribedCommit } from '../../git/describe.js';
import { repoDir } from '../../git/paths.js';
import { folderSize } from '../../git/size.js';
import { branchCount, createRef, deleteRef, listBranchTips, moveRef, refNames, refTarget, renameRef, resolveCommit, setHead } from '../../git/refs.js';
import { canWrite, isRepoAdmin } from '../../permissions/repo.js';
import { isAncestor } from '../../git/merge.js';
import { withKeyLock } from '../locks.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import { isValidNewBranchName, isValidRefName } from '../names.js';
import type { BranchProtectionService } from './branchProtections.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

export interface BranchView {
  name: string;
  commit: DescribedCommit;
}

export function requireCodeWriter(loaded: LoadedRepo): void {
  if (!canWrite(loaded.perm, 'repo.code')) throw new Forbidden('user should have a permission to write to a repo');
}

/** Told after a repository's branches changed, e.g. to refresh pull-request statistics. */
export type BranchesChanged = (repoId: number, dir: string, actorId?: number) => Promise<void>;

export class BranchService {
  private readonly listeners: BranchesChanged[] = [];

  constructor(
    private readonly deps: ServiceDeps,
    readonly protections: BranchProtectionService,
  ) {}

  onChange(listener: BranchesChanged): void {
    this.listeners.push(listener);
  }

  /** Runs the listeners; their failure must not undo or fail the change that already happened. */
  async changed(repoId: number, dir: string, actorId?: number): Promise<void> {
    for (const listener of this.listeners) {
      await listener(repoId, dir, actorId).catch((err: Error) => this.deps.log.warn({ err: err.message, repoId }, 'after-branch-change task failed'));
    }
  }

  dir(loaded: LoadedRepo): string {
    return repoDir(this.deps.config.dataDir, loaded.owner.name, loaded.repo.name);
  }

  /**
   * After refs moved in git: the row's branch count and emptiness (and `patch`) follow git, and the changes
   * are recorded as events, in one transaction; then the follow-up work runs. `known`: the tips that
   * existed before (what a new branch's commits are counted against).
   */
  async refsChanged(
    loaded: Pick<LoadedRepo, 'repo' | 'owner'>, actorId: number, changes: RefChange[], known: string[], patch: Partial<RepoRow> = {},
    inTx?: (tx: Db) => Promise<void>,
  ): Promise<void> {
    await this.recordRefEvents(loaded, actorId, await this.refEvents(loaded, actorId, changes, known), patch, inTx);
  }

  /**
   * The events of ref changes (reading the commits they bring from git). Needs only the old and new tips,
   * so a caller may read them while it moves the ref, then record them with recordRefEvents.
   */
  async refEvents(loaded: Pick<LoadedRepo, 'repo' | 'owner'>, actorId: number, changes: RefChange[], known: string[]): Promise<DomainEvent[]> {
    const { repo, owner } = loaded;
    const dir = repoDir(this.deps.config.dataDir, owner.name, repo.name);
    const events = await refChangeEvents(dir, inRepo(repo, actorId), `${owner.name}/${repo.name}`, changes, known);
    // Pushes of commits without workflow files are marked: Actions has nothing to start for them (and,
    // on the default branch, only schedules to drop if there are any).
    if (this.deps.config.actions.enabled) {
      for (const e of events) {
        if (e.type === 'push' && !(await hasWorkflowFiles(dir, e.after))) e.noWorkflows = e.ref === `refs/heads/${repo.defaultBranch}` ? 'default' : 'branch';
      }
    }
    return events;
  }

  /**
   * The second half of refsChanged: the row follows git and the events are recorded (in one statement
   * alone when no fan-out has work to do, else in a transaction); then the follow-up work. The branches
   * are counted again only when a branch was created or deleted (`branches`: the count, when the caller
   * knows it).
   */
  async recordRefEvents(
    loaded: Pick<LoadedRepo, 'repo' | 'owner'>, actorId: number, events: DomainEvent[], patch: Partial<RepoRow> = {},
    inTx?: (tx: Db) => Promise<void>, branches?: number,
  ): Promise<void> {
    const { repo, owner } = loaded;
    const dir = repoDir(this.deps.config.dataDir, owner.name, repo.name);
    const counted = events.some((e) => (e.type === 'create' || e.type === 'delete') && e.refType === 'branch');
    const n = counted ? (branches ?? (await branchCount(dir))) : undefined;
    // The repository's size follows each change as Gitea's does after a push: its folder's bytes (read
    // here, outside any transaction) and those of the LFS objects it records (in the same statement).
    const gitSize = await folderSize(dir);
    const lfsSize = sql`(select coalesce(sum(${lfsMetaObjects.size}), 0) from ${lfsMetaObjects} where ${lfsMetaObjects.repoId} = ${repo.id})`;
    const rowUpdate = (db: Db) => db.update(repositories)
      .set({ ...(n === undefined ? {} : { numBranches: n, isEmpty: n === 0 }), sizeBytes: sql`${gitSize}::bigint + ${lfsSize}`, updatedAt: new Date(), ...patch })
      .where(eq(repositories.id, repo.id));
    // Nothing for any fan-out to do (no hook, no workflow, no feed row): one statement, no transaction.
    const alone = !inTx && (await recordEventsAlone(this.deps, events, rowUpdate(this.deps.db)));
    if (!alone) {
      await withTx(this.deps.db, async (tx) => {
        await recordEvents(this.deps, tx, events, rowUpdate(tx));
        await inTx?.(tx);
      });
    }
    await this.changed(repo.id, dir, actorId);
  }

  /**
   * Runs `record` (reading and recording the events of ref moves already made in git); when it fails, each
   * moved ref is put back where it was (only if it still points where this change put it) and the error
   * goes on: no git change stands without its database record.
   */
  async recordOrUndo<T>(loaded: Pick<LoadedRepo, 'repo' | 'owner'>, moves: RefChange[], record: () => Promise<T>): Promise<T> {
    try {
      return await record();
    } catch (err) {
      const dir = repoDir(this.deps.config.dataDir, loaded.owner.name, loaded.repo.name);
      for (const m of moves) {
        const undo = /^0+$/.test(m.before) ? deleteRef(dir, m.ref, m.after) : moveRef(dir, m.ref, m.before, m.after);
        await undo.catch((e: Error) => this.deps.log.error({ err: e.message, ref: m.ref, repoId: loaded.repo.id }, 'could not undo a ref change whose record failed'));
      }
      throw err;
    }
  }

  async create(loaded: LoadedRepo, actor: UserRow, input: { name: string; oldBranch?: string; oldRef?: string }): Promise<BranchView> {
    const { repo } = loaded;
    requireCodeWriter(loaded);
    if (repo.isArchived) throw new RepoArchived();
    if (repo.isMirror) throw new Forbidden('Git Repository is a mirror.');
    if (!isValidNewBranchName(input.name)) throw new Invalid(`[new_branch_name]: invalid branch name "${input.name}"`);
    const dir = this.dir(loaded);
    if (repo.isEmpty) throw new NotFound('Git Repository is empty.');
    // The names of every ref (one listing, no ref file opened), then the one source read.
    const refs = await refNames(dir);
    const branchTip = async (name: string) => (refs.has(`refs/heads/${name}`) ? refTarget(dir, `refs/heads/${name}`) : undefined);
    let source: string | undefined;
    if (input.oldRef) {
      // A branch name (the common case) is read from its file; tags and commit ids are peeled by git.
      source = (await branchTip(input.oldRef)) ?? (await resolveCommit(dir, input.oldRef));
      if (!source) throw new NotFound(`The old ref does not exist: ${input.oldRef}`);
    } else if (input.oldBranch) {
      source = await branchTip(input.oldBranch);
      if (!source) throw new NotFound('The old branch does not exist');
    } else {
      source = await branchTip(repo.defaultBranch);
      if (!source) throw new NotFound('The default branch does not exist');
    }
    const wanted = `refs/heads/${input.name}`;
    if (refs.has(wanted)) throw new Conflict('The branch already exists.');
    if (refs.has(`refs/tags/${input.name}`)) throw new Conflict('The branch with the same tag already exists.');
    if ([...refs].some((r) => r.startsWith(`${wanted}/`) || wanted.startsWith(`${r}/`))) {
      throw new Conflict('The branch with the same name already exists.');
    }
    try {
      await createRef(dir, wanted, source);
    } catch (err) {
      // Created by someone else between the check and the update: the ref's old value no longer matches.
      if (err instanceof GitError) throw new Conflict('The branch already exists.');
      throw err;
    }
    const move = { ref: wanted, before: zeroIdLike(source), after: source };
    await this.recordOrUndo(loaded, [move], async () => {
      const events = await this.refEvents(loaded, actor.id, [move], [source]);
      // The branches counted from the listing read before (with the new one), not listed again.
      const heads = [...refs].filter((r) => r.startsWith('refs/heads/')).length + 1;
      await this.recordRefEvents(loaded, actor.id, events, {}, undefined, heads);
    });
    const commit = (await describeCommits(dir, [source], { files: false })).get(source)!;
    return { name: input.name, commit };
  }

  async list(loaded: LoadedRepo, page: { limit: number; offset: number }): Promise<{ rows: BranchView[]; total: number }> {
    if (loaded.repo.isEmpty) return { rows: [], total: 0 };
    const dir = this.dir(loaded);
    const tips = await listBranchTips(dir, { newestFirst: true });
    const slice = tips.slice(page.offset, page.offset + page.limit);
    const commits = await describeCommits(dir, slice.map((t) => t.commit), { files: false });
    return { rows: slice.map((t) => ({ name: t.name, commit: commits.get(t.commit)! })), total: tips.length };
  }

  async get(loaded: LoadedRepo, name: string): Promise<BranchView> {
    if (!isValidRefName(name)) throw new NotFound();
    const dir = this.dir(loaded);
    const tip = await refTarget(dir, `refs/heads/${name}`);
    if (!tip) throw new NotFound();
    return { name, commit: (await describeCommits(dir, [tip], { files: false })).get(tip)! };
  }

  /**
   * Gitea's RenameBranch. Code writers; the default branch, or a branch a protection rule matches, only
   * repository administrators; the new name must not be protected from the caller. The ref moves in one git
   * transaction; then one database transaction makes the default branch, the rule named exactly after the
   * branch and the unmerged pull requests whose base or head it is follow, and records the `delete` of the
   * old name and the `create` of the new one (no push: no commit came). HEAD follows the default branch.
   */
  async rename(loaded: LoadedRepo, actor: UserRow, from: string, to: string): Promise<void> {
    const { repo } = loaded;
    requireCodeWriter(loaded);
    if (repo.isArchived) throw new RepoArchived();
    if (repo.isMirror) throw new Forbidden('Git Repository is a mirror.');
    if (repo.isEmpty) throw new NotFound('Git Repository is empty.');
    if (!isValidNewBranchName(to)) throw new Invalid(`[name]: invalid branch name "${to}"`);
    const sameOrTaken = 'Cannot rename a branch using the same name or rename to a branch that already exists.';
    if (from === to) throw new Invalid(sameOrTaken);
    const dir = this.dir(loaded);
    const refs = await refNames(dir);
    const [oldRef, newRef] = [`refs/heads/${from}`, `refs/heads/${to}`];
    if (refs.has(newRef)) throw new Invalid(sameOrTaken);
    if (!isValidRefName(from) || !refs.has(oldRef)) throw new NotFound("Branch doesn't exist.");
    if ([...refs].some((r) => r !== oldRef && (r.startsWith(`${newRef}/`) || newRef.startsWith(`${r}/`)))) {
      throw new Invalid(`a branch whose name conflicts with "${to}" exists`);
    }
    const isDefault = from === repo.defaultBranch;
    const rules = await this.protections.rules(repo.id);
    if ((isDefault || (await this.protections.ruleFor(repo.id, from, rules))) && !isRepoAdmin(loaded.perm)) {
      throw new Forbidden('User must be a repo or site admin to rename default or protected branches.');
    }
    const target = await this.protections.ruleFor(repo.id, to, rules);
    if (target && !(await this.protections.canPush(loaded, target, actor))) throw new Forbidden('Branch is protected by glob-based protection rules.');
    const tip = await refTarget(dir, oldRef);
    if (!tip) throw new NotFound("Branch doesn't exist.");
    try {
      await renameRef(dir, oldRef, newRef, tip);
    } catch (err) {
      if (err instanceof GitError) throw new Conflict('the branch changed while it was being renamed');
      throw err;
    }
    const moves = [{ ref: oldRef, before: tip, after: zeroIdLike(tip) }, { ref: newRef, before: zeroIdLike(tip), after: tip }];
    try {
      if (isDefault) await setHead(dir, to);
      await this.recordOrUndo(loaded, moves, async () => {
        const events = (await this.refEvents(loaded, actor.id, moves, [tip])).filter((e) => e.type !== 'push');
        const heads = [...refs].filter((r) => r.startsWith('refs/heads/')).length;
        await this.recordRefEvents(loaded, actor.id, events, isDefault ? { defaultBranch: to } : {}, async (tx) => {
          const other = alias(branchProtections, 'other');
          await tx.update(branchProtections).set({ ruleName: to, updatedAt: new Date() }).where(and(
            eq(branchProtections.repoId, repo.id), eq(branchProtections.ruleName, from),
            notExists(tx.select({ id: other.id }).from(other).where(and(eq(other.repoId, repo.id), eq(other.ruleName, to)))),
          ));
          await tx.update(pullRequests).set({ baseBranch: to })
            .where(and(eq(pullRequests.repoId, repo.id), eq(pullRequests.baseBranch, from), eq(pullRequests.merged, false)));
          await tx.update(pullRequests).set({ headBranch: to })
            .where(and(eq(pullRequests.headRepoId, repo.id), eq(pullRequests.headBranch, from), eq(pullRequests.merged, false)));
        }, heads);
      });
    } catch (err) {
      if (isDefault) await setHead(dir, from).catch((e: Error) => this.deps.log.error({ err: e.message, repoId: repo.id }, 'could not put HEAD back after a failed rename'));
      throw err;
    }
  }

  /**
   * Gitea's UpdateBranch (PUT …/branches/{branch}): moves a branch to another commit as a push would. Code
   * writers; a protection rule matching the branch applies as in the push hook (push allowed; force-push
   * allowed when the move is no fast-forward). `oldCommitId` is a compare-and-swap; without `force` only a
   * fast-forward. The ref moves from the tip read (409 when it moved meanwhile), then the push is recorded
   * (or the ref put back).
   */
  async update(loaded: LoadedRepo, actor: UserRow, name: string, input: { newCommitId: string; oldCommitId?: string | null; force?: boolean | null }): Promise<void> {
    const { repo } = loaded;
    requireCodeWriter(loaded);
    if (repo.isArchived) throw new RepoArchived();
    if (repo.isMirror) throw new Forbidden('Git Repository is a mirror.');
    if (repo.isEmpty) throw new NotFound('Git Repository is empty.');
    if (!input.newCommitId.trim()) throw new Invalid('[new_commit_id]: Required');
    if (!isValidRefName(name)) throw new NotFound("Branch doesn't exist.");
    const dir = this.dir(loaded);
    const ref = `refs/heads/${name}`;
    await withKeyLock(`${dir}\0${name}`, async () => {
      const tip = await refTarget(dir, ref);
      if (!tip) throw new NotFound("Branch doesn't exist.");
      const target = /^[0-9a-f]{4,64}$/i.test(input.newCommitId) ? await resolveCommit(dir, input.newCommitId) : undefined;
      if (!target) throw new NotFound(`commit does not exist [id: ${input.newCommitId}]`);
      if (input.oldCommitId && input.oldCommitId.toLowerCase() !== tip && !(input.oldCommitId.length < tip.length && tip.startsWith(input.oldCommitId.toLowerCase()))) {
        throw new Conflict(`the branch is not at old_commit_id ${input.oldCommitId} (it is at ${tip})`);
      }
      if (target === tip) return;
      const fastForward = await isAncestor(dir, tip, target);
      if (!fastForward && !input.force) throw new Invalid('Update is not a fast-forward; set force to move the branch anyway');
      const rule = await this.protections.ruleFor(repo.id, name);
      if (rule) {
        if (!(await this.protections.canPush(loaded, rule, actor))) throw new Forbidden(`you may not push to the protected branch ${name}`);
        if (!fastForward && !(await this.protections.canForcePush(loaded, rule, actor))) {
          throw new Forbidden(`force pushes to the protected branch ${name} are not allowed`);
        }
      }
      const move = { ref, before: tip, after: target };
      const events = this.refEvents(loaded, actor.id, [move], [tip]);
      events.catch(() => undefined); // awaited below when the ref moved; dropped when it did not
      try {
        await moveRef(dir, ref, target, tip);
      } catch (err) {
        if (err instanceof GitError) throw new Conflict('the branch moved while it was being updated');
        throw err;
      }
      await this.recordOrUndo(loaded, [move], async () => this.recordRefEvents(loaded, actor.id, await events));
    });
  }

  async delete(loaded: LoadedRepo, actor: UserRow, name: string): Promise<void> {
    const { repo } = loaded;
    requireCodeWriter(loaded);
    if (repo.isArchived) throw new RepoArchived();
    if (repo.isEmpty) throw new NotFound('Git Repository is empty.');
    if (!isValidRefName(name)) throw new NotFound();
    if (name === repo.defaultBranch) throw new Forbidden('can not delete default branch');
    // Gitea: a branch any protection rule matches is not deleted, whoever asks.
    if (await this.protections.ruleFor(repo.id, name)) throw new Forbidden('branch protected');
    const dir = this.dir(loaded);
    const ref = `refs/heads/${name}`;
    // A concurrent delete makes this one a 404; a concurrent push moves the tip, and the new tip is deleted.
    let deleted: string;
    for (let attempt = 0; ; attempt++) {
      const tip = await refTarget(dir, ref);
      if (!tip) throw new NotFound();
      try {
        await deleteRef(dir, ref, tip);
        deleted = tip;
        break;
      } catch (err) {
        if (!(err instanceof GitError)) throw err;
        if (attempt === 2) throw new Conflict('the branch changed while it was being deleted');
      }
    }
    await this.refsChanged(loaded, actor.id, [{ ref, before: deleted, after: zeroIdLike(deleted) }], []);
  }
}
