// What a pull request changes, read from git: its diff and patch, its changed files and its commits (from
// the merge base, or for a merged pull request the merge base and head it had); and updating its head
// branch with the base's new commits (merge or rebase), built without a work tree and moved by
// compare-and-swap like every other write of a branch.
import { changedFiles, commitLineStats, commitsBetween, diffText, patchText, type ChangedPath, type WhitespaceMode } from '../../git/compare.js';
import { GitError } from '../../git/core.js';
import { describeCommits, type DescribedCommit } from '../../git/describe.js';
import { commitTree, commitsToReplay, isAncestor, MergeConflict, mergeTree, replay } from '../../git/merge.js';
import { fetchLocal } from '../../git/fetch.js';
import { moveRef, refTarget } from '../../git/refs.js';
import type { UserRow } from '../../db/schema/index.js';
import { canWrite } from '../../permissions/repo.js';
import type { BranchService } from '../git/branches.js';
import { signatureOf } from '../identity.js';
import { Conflict, Forbidden, Invalid, RepoArchived } from '../errors.js';
import { withKeyLock } from '../locks.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { headRepoOf } from './forkPulls.js';
import { fromOtherRepo, type PullService, type PullView } from './pulls.js';
import type { CommitSigning } from '../keys/commitSigning.js';

export interface PullCommit {
  commit: DescribedCommit;
  additions: number;
  deletions: number;
}

export class PullChangeService {
  constructor(
    private readonly pulls: PullService,
    private readonly branches: BranchService,
    private readonly signing: CommitSigning,
  ) {}

  /**
   * The two ends of what the pull request brings: its merge base (recomputed when the base moved) and its
   * head tip; for a merged pull request the stored ones, which git keeps through refs/pull/N/head.
   */
  private async range(loaded: LoadedRepo, index: number): Promise<{ view: PullView; from: string; to: string }> {
    const view = await this.pulls.get(loaded, index);
    const { pull } = view;
    return { view, from: pull.mergeBase, to: pull.headSha };
  }

  async diffOrPatch(loaded: LoadedRepo, index: number, kind: 'diff' | 'patch', binary: boolean): Promise<string> {
    const { from, to } = await this.range(loaded, index);
    const dir = this.pulls.dir(loaded);
    if (!from || !to) return '';
    return kind === 'diff' ? diffText(dir, from, to, binary) : patchText(dir, from, to, binary);
  }

  /** The changed files from `skipTo` on (all when no file has that path), and how many there are in all. */
  async files(loaded: LoadedRepo, index: number, opts: { skipTo?: string; whitespace?: WhitespaceMode }): Promise<{ files: ChangedPath[]; headSha: string }> {
    const { from, to } = await this.range(loaded, index);
    if (!from || !to) return { files: [], headSha: to };
    const all = await changedFiles(this.pulls.dir(loaded), from, to, opts.whitespace);
    const start = opts.skipTo ? Math.max(0, all.findIndex((f) => f.path === opts.skipTo)) : 0;
    return { files: all.slice(start), headSha: to };
  }

  /** A page of the pull request's commits, newest first, with their line statistics. */
  async commits(loaded: LoadedRepo, index: number, page: { limit: number; offset: number }, opts: { files: boolean }): Promise<{ rows: PullCommit[]; total: number }> {
    const { view, to } = await this.range(loaded, index);
    const dir = this.pulls.dir(loaded);
    // Open: what the base lacks now; merged: what it brought, from the merge base.
    const from = view.pull.merged ? view.pull.mergeBase : view.pull.baseSha;
    if (!from || !to) return { rows: [], total: 0 };
    const ids = await commitsBetween(dir, from, to);
    const slice = ids.slice(page.offset, page.offset + page.limit);
    const [described, stats] = await Promise.all([describeCommits(dir, slice, { files: opts.files }), commitLineStats(dir, slice)]);
    return {
      rows: slice.map((id) => ({ commit: described.get(id)!, ...stats.get(id)! })),
      total: ids.length,
    };
  }

  /**
   * POST .../update: the base's new commits brought into the head branch, by a merge commit or by
   * replaying the head on the base. The head branch then moved as by a push (events, synchronization).
   */
  async update(loaded: LoadedRepo, index: number, actor: UserRow, style: 'merge' | 'rebase'): Promise<void> {
    const view = await this.pulls.load(loaded, index);
    const { pull } = view;
    if (pull.merged) throw new Invalid('the pull request is merged');
    if (view.issue.isClosed) throw new Invalid('the pull request is closed');
    if (loaded.repo.isArchived) throw new RepoArchived();
    // The head branch may be another repository's (a fork): it is written there.
    const head = await headRepoOf(this.pulls, loaded, pull, actor);
    if (!head) throw new Invalid('the head repository of the pull request was deleted');
    if (head.repo.isArchived) throw new RepoArchived();
    // A fork's branch: its writers, or the base's writers when the poster allows maintainers to edit (Gitea's IsUserAllowedToUpdate).
    const mayPush = canWrite(head.perm, 'repo.code') || (fromOtherRepo(pull) && pull.allowMaintainerEdit && canWrite(loaded.perm, 'repo.code'));
    if (!mayPush) throw new Forbidden('user may not push to the head branch');
    if (style === 'rebase' && !loaded.repo.allowRebaseUpdate) throw new Forbidden('updating by rebase is not allowed in this repository');
    // A protected head branch: pushing needs the rule's permission, a rebase (a force push) its force permission.
    const { protections } = this.branches;
    const rule = await protections.ruleFor(head.repo.id, pull.headBranch);
    if (rule && !(await (style === 'rebase' ? protections.canForcePush(head, rule, actor) : protections.canPush(head, rule, actor)))) {
      throw new Forbidden(`branch protected [name: ${pull.headBranch}]`);
    }
    const dir = this.pulls.dir(head);
    const baseDir = this.pulls.dir(loaded);
    const headRef = `refs/heads/${pull.headBranch}`;
    const moved = await withKeyLock(`${dir}\0${pull.headBranch}`, async () => {
      const [headTip, baseTip] = await Promise.all([refTarget(dir, headRef), refTarget(baseDir, `refs/heads/${pull.baseBranch}`)]);
      if (!headTip || !baseTip) throw new Conflict('a branch of the pull request does not exist');
      // The base's new commits come into the fork first.
      if (dir !== baseDir) await fetchLocal(dir, baseDir, [baseTip]);
      if (await isAncestor(dir, baseTip, headTip)) return undefined; // nothing to bring
      const who = signatureOf(actor, this.deps.config);
      // Signed as a pull request's merge is (MERGES), the head's branch taking the base's commits.
      const sign = await this.signing.signer('merges', { actor, dir, base: headTip, head: baseTip });
      let next: string;
      try {
        next = style === 'merge'
          ? await commitTree(dir, await mergeTree(dir, headTip, baseTip), [headTip, baseTip], `Merge branch '${pull.baseBranch}' into ${pull.headBranch}`, who, who, undefined, sign)
          : await replay(dir, baseTip, await commitsToReplay(dir, baseTip, headTip), who, sign);
      } catch (err) {
        if (err instanceof MergeConflict) throw new Conflict(`${style} failed because of conflict: ${err.paths.join(', ')}`);
        throw err;
      }
      try {
        await moveRef(dir, headRef, next, headTip);
      } catch (err) {
        if (err instanceof GitError) throw new Conflict('the head branch moved meanwhile; try again');
        throw err;
      }
      return { before: headTip, after: next, known: [headTip, baseTip] };
    });
    if (!moved) return;
    const move = { ref: headRef, before: moved.before, after: moved.after };
    await this.branches.recordOrUndo(head, [move], () => this.branches.refsChanged(head, actor.id, [move], moved.known));
  }

  private get deps() {
    return this.pulls.deps;
  }
}
