// Merging a pull request (Gitea's six `Do` styles) without a work tree. The merge commit is built from
// objects (git/merge.ts), then the base branch moves by compare-and-swap: when it moved meanwhile the merge
// is built again on the new tip, so a concurrent push or merge is never lost. One merge of a pull request
// at a time, across processes: the row's merge_pending is claimed first, and records the merge commit just
// before the branch moves, so a merge whose process died after the move is completed later
// (settlePending) instead of being lost or done twice.
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import {
  comments, issues, pullAutoMerges, pullRequests, pullReviews, users,
  type BranchProtectionRow, type IssueRow, type MergePending, type PullRequestRow, type UserRow,
} from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { GitError } from '../../git/core.js';
import { commitTree, commitsToReplay, isAncestor, MergeConflict, mergeTree, replay, treeOf } from '../../git/merge.js';
import { objectType } from '../../git/objects.js';
import { moveRef, refTarget } from '../../git/refs.js';
import { canWrite, isRepoAdmin } from '../../permissions/repo.js';
import { recordEvents } from '../events/record.js';
import { inRepo, issueContent } from '../events/scope.js';
import type { DomainEvent } from '../events/types.js';
import type { BranchService } from '../git/branches.js';
import type { BranchProtectionService } from '../git/branchProtections.js';
import { requiredState } from '../git/statuses.js';
import { signatureOf } from '../identity.js';
import { closeReferencedByPull } from '../issues/closeByReference.js';
import { shiftRepoIssues } from '../issues/counters.js';
import { Conflict, Forbidden, NotAllowed, NotFound, RepoArchived } from '../errors.js';
import { hasOpenDependencies } from '../issues/openDependencies.js';
import { withKeyLock } from '../locks.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { headRepoOf } from './forkPulls.js';
import { isWorkInProgress } from './pullEdit.js';
import { fromOtherRepo, headRefOf, type PullService, type PullView } from './pulls.js';
import type { CommitSigning } from '../keys/commitSigning.js';
import type { CommitSigner } from '../../git/commitObject.js';

/** Gitea's `Do` values. */
export type MergeStyle = 'merge' | 'rebase' | 'rebase-merge' | 'squash' | 'fast-forward-only' | 'manually-merged';

export interface MergeInput {
  style: MergeStyle;
  /** merge_title_field: the first line of the merge or squash commit's message. */
  title?: string;
  /** merge_message_field: the rest of the message. */
  message?: string;
  /** The head commit the caller reviewed: the merge is refused (409) when the head moved since. */
  headCommitId?: string;
  /** manually-merged: the commit of the base branch that merged the pull request. */
  mergeCommitId?: string;
  /** Absent: the repository's default_delete_branch_after_merge. */
  deleteBranch?: boolean;
  /** Schedule the merge for when the head's commit statuses succeed (merged at once when they already do). */
  whenChecksSucceed?: boolean;
  /** A repository admin merges although the protection rule's checks are not met. */
  force?: boolean;
}

/** How a merge request ended: merged now, or scheduled for when the checks succeed. */
export type MergeOutcome = 'merged' | 'scheduled';

type Target = Pick<LoadedRepo, 'repo' | 'owner'>;

/** A claim older than this belongs to a process that died (a merge takes seconds). */
const leaseMs = 5 * 60_000;
/** Builds on a base branch that keeps moving before giving up with 409. */
const attempts = 8;

const allowedBy: Record<MergeStyle, keyof LoadedRepo['repo']> = {
  merge: 'allowMergeCommits',
  rebase: 'allowRebase',
  'rebase-merge': 'allowRebaseExplicit',
  squash: 'allowSquashMerge',
  'fast-forward-only': 'allowFastForwardOnlyMerge',
  'manually-merged': 'allowManualMerge',
};

/** Whether a combined commit state lets a scheduled merge go ahead. */
export const checksPassed = (state: string) => state === 'success' || state === 'skipped';

/** Gitea's default messages: the squash commit names the pull request, a merge commit its branches too. */
export function defaultMergeTitle(style: MergeStyle, issue: IssueRow, pull: PullRequestRow): string {
  if (style === 'squash') return `${issue.title} (#${issue.index})`;
  return `Merge pull request '${issue.title}' (#${issue.index}) from ${pull.headBranch} into ${pull.baseBranch}`;
}

export class MergeService {
  constructor(
    private readonly pulls: PullService,
    private readonly branches: BranchService,
    private readonly protections: BranchProtectionService,
    private readonly signing: CommitSigning,
  ) {}

  private get deps() {
    return this.pulls.deps;
  }

  /** GET .../merge: whether the pull request is merged (404 when it is not visible). */
  async isMerged(loaded: LoadedRepo, index: number): Promise<boolean> {
    return (await this.pulls.load(loaded, index)).pull.merged;
  }

  /**
   * The checks Gitea makes before merging (CheckPullMergeable), in its order: merged (405), closed (404),
   * not allowed to merge (405: a code writer, or the protection rule's merge whitelist), draft (405); the
   * style must be allowed by the repository (405); then the base branch's protection rule (405 with its
   * reason), which a repository admin's `force_merge` overrides unless the rule forbids it. `schedule`:
   * only what a scheduled merge must meet now (the rule is checked when it runs).
   */
  private async check(loaded: LoadedRepo, view: PullView, style: MergeStyle, actor: UserRow, opts: { force?: boolean; schedule?: boolean } = {}): Promise<void> {
    if (loaded.repo.isArchived) throw new RepoArchived();
    if (view.pull.merged) throw new NotAllowed('the pull request has already been merged');
    if (view.issue.isClosed) throw new NotFound();
    const rule = await this.protections.ruleFor(loaded.repo.id, view.pull.baseBranch);
    if (!(await this.protections.canMerge(loaded, rule, actor))) throw new NotAllowed('User not allowed to merge PR');
    if (style !== 'manually-merged' && isWorkInProgress(view.issue.title)) throw new NotAllowed('Work in progress PRs cannot be merged');
    if (!loaded.repo[allowedBy[style]]) throw new NotAllowed(`${style} is not allowed an allowed merge style for this repository`);
    // Gitea's ErrDependenciesLeft: an issue this pull request depends on is still open.
    if (style !== 'manually-merged' && (await hasOpenDependencies(this.deps.db, view.issue.id))) throw new NotAllowed('is blocked by an open dependency');
    if (!rule || style === 'manually-merged' || opts.schedule) return;
    const blocker = await this.blocker(loaded, view, rule);
    if (blocker && !(opts.force && isRepoAdmin(loaded.perm) && !rule.settings.blockAdminMergeOverride)) throw new NotAllowed(blocker);
  }

  /** Why the base branch's rule does not let the pull request merge now (undefined: it does). */
  private async blocker(loaded: Target, view: PullView, rule: BranchProtectionRow): Promise<string | undefined> {
    const { db } = this.deps;
    const dir = this.pulls.dir(loaded);
    const ends = await this.pulls.ends(loaded, view);
    const headTip = ends.headTip ?? view.pull.headSha;
    const baseTip = ends.baseTip;
    const reviews = await db.select().from(pullReviews).where(eq(pullReviews.issueId, view.issue.id)).orderBy(asc(pullReviews.id));
    return this.protections.mergeBlocker(rule, {
      headSha: headTip,
      headContainsBase: !!baseTip && (await isAncestor(dir, baseTip, headTip)),
      headState: (contexts) => requiredState(db, loaded.repo.id, headTip, contexts),
      reviews,
    });
  }

  /**
   * Whether a scheduled merge may go ahead: the head's statuses (those the protection rule requires, or
   * all of them) pass, and nothing else in the rule blocks it.
   */
  async ready(loaded: Target, view: PullView): Promise<boolean> {
    const rule = await this.protections.ruleFor(loaded.repo.id, view.pull.baseBranch);
    const contexts = rule?.settings.enableStatusCheck ? rule.settings.statusCheckContexts : [];
    let state: string;
    if (contexts.length) {
      const tip = (await this.pulls.ends(loaded, view)).headTip;
      state = tip ? await requiredState(this.deps.db, loaded.repo.id, tip, contexts) : '';
    } else {
      state = await this.pulls.headState(loaded, view);
    }
    if (!checksPassed(state)) return false;
    return !rule || !(await this.blocker(loaded, view, rule));
  }

  async merge(loaded: LoadedRepo, index: number, actor: UserRow, input: MergeInput): Promise<MergeOutcome> {
    // get: the stored tips and merge base brought up to date first (they are what the merged pull request keeps).
    const view = await this.pulls.get(loaded, index);
    const current = (await this.settlePending(loaded, view.pull)) ? await this.pulls.load(loaded, index) : view;
    await this.check(loaded, current, input.style, actor, { force: input.force, schedule: input.whenChecksSucceed });
    const title = input.title?.trim() || defaultMergeTitle(input.style, current.issue, current.pull);
    const extra = input.message?.trim();
    const message = extra ? `${title}\n\n${extra}` : title;
    const deleteBranch = input.deleteBranch ?? loaded.repo.defaultDeleteBranchAfterMerge;
    if (input.whenChecksSucceed && input.style !== 'manually-merged') {
      if (!(await this.ready(loaded, current))) {
        await this.schedule(loaded, current, actor, { style: input.style, message, deleteBranch });
        return 'scheduled';
      }
    }
    await this.mergeNow(loaded, current, actor, { ...input, message, deleteBranch });
    return 'merged';
  }

  /** Records the schedule (409 when one exists) and its timeline comment. */
  private async schedule(loaded: LoadedRepo, view: PullView, actor: UserRow, s: { style: MergeStyle; message: string; deleteBranch: boolean }) {
    await withTx(this.deps.db, async (tx) => {
      const inserted = await tx.insert(pullAutoMerges)
        .values({ pullId: view.pull.id, doerId: actor.id, style: s.style, message: s.message, deleteBranchAfterMerge: s.deleteBranch })
        .onConflictDoNothing()
        .returning({ pullId: pullAutoMerges.pullId });
      if (!inserted.length) throw new Conflict(`pull request is already scheduled to auto merge [pull_id: ${view.pull.id}]`);
      await tx.insert(comments).values({ issueId: view.issue.id, repoId: loaded.repo.id, posterId: actor.id, type: 'pull_scheduled_merge', newValue: s.style });
    });
  }

  /** DELETE .../merge: the scheduler or a repository administrator cancels a scheduled merge. */
  async cancelScheduled(loaded: LoadedRepo, index: number, actor: UserRow): Promise<void> {
    const view = await this.pulls.load(loaded, index);
    if (loaded.repo.isArchived) throw new RepoArchived();
    const [row] = await this.deps.db.select().from(pullAutoMerges).where(eq(pullAutoMerges.pullId, view.pull.id));
    if (!row) throw new NotFound();
    if (row.doerId !== actor.id && !isRepoAdmin(loaded.perm)) throw new Forbidden('user has no permission to cancel the scheduled auto merge');
    await withTx(this.deps.db, async (tx) => {
      const gone = await tx.delete(pullAutoMerges).where(eq(pullAutoMerges.pullId, view.pull.id)).returning({ pullId: pullAutoMerges.pullId });
      if (!gone.length) throw new NotFound();
      await tx.insert(comments).values({ issueId: view.issue.id, repoId: loaded.repo.id, posterId: actor.id, type: 'pull_cancel_scheduled_merge' });
    });
  }

  /**
   * A scheduled merge whose checks passed: merged as the one who scheduled it, if they still may (their
   * permission is read now). Answers whether it merged; a merge that fails (a conflict) stays scheduled.
   */
  async runScheduled(loaded: LoadedRepo, view: PullView, doer: UserRow, s: { style: MergeStyle; message: string; deleteBranch: boolean }): Promise<void> {
    await this.check(loaded, view, s.style, doer);
    await this.mergeNow(loaded, view, doer, { style: s.style, message: s.message, deleteBranch: s.deleteBranch, auto: true });
  }

  /** Claims the merge of this pull request for this process (409 when another merge is under way). */
  private async claim(pull: PullRequestRow, pending: MergePending): Promise<void> {
    const stale = new Date(Date.now() - leaseMs).toISOString();
    const [row] = await this.deps.db.update(pullRequests).set({ mergePending: pending })
      .where(and(
        eq(pullRequests.id, pull.id), eq(pullRequests.merged, false),
        or(isNull(pullRequests.mergePending), sql`${pullRequests.mergePending}->>'at' < ${stale}`),
      ))
      .returning({ id: pullRequests.id });
    if (!row) throw new Conflict('the pull request is being merged');
  }

  private async release(pull: PullRequestRow, at: string): Promise<void> {
    await this.deps.db.update(pullRequests).set({ mergePending: null })
      .where(and(eq(pullRequests.id, pull.id), sql`${pullRequests.mergePending}->>'at' = ${at}`));
  }

  private async mergeNow(
    loaded: LoadedRepo, view: PullView, actor: UserRow,
    input: MergeInput & { message: string; deleteBranch: boolean; auto?: boolean },
  ): Promise<void> {
    const { pull, issue } = view;
    const dir = this.pulls.dir(loaded);
    const pending: MergePending = { byId: actor.id, at: new Date().toISOString(), style: input.style, auto: input.auto };
    await this.claim(pull, pending);
    let done = false;
    // Once the branch moved, a failure to record the merge leaves the claim (with its commit) for
    // settlePending to complete: the merge happened and must not be lost.
    let moved = false;
    try {
      if (input.style === 'manually-merged') {
        const sha = await this.manualCommit(dir, pull, input.mergeCommitId ?? '');
        await this.record(loaded, view, actor, { sha, auto: false, events: [] });
        done = true;
      } else {
        // A fork's head: the commits fetched into refs/pull/N/head.
        const headTip = await refTarget(dir, headRefOf(pull, issue.index));
        if (!headTip) throw new Conflict(`head branch does not exist [name: ${pull.headBranch}]`);
        if (input.headCommitId && input.headCommitId !== headTip) throw new Conflict('head out of date');
        const committer = signatureOf(actor, this.deps.config);
        const ref = `refs/heads/${pull.baseBranch}`;
        // Writers of this branch in this process take turns (as diffpatch's); across processes the
        // compare-and-swap below decides and the loser builds again.
        done = await withKeyLock(`${dir}\0${pull.baseBranch}`, async () => {
          for (let attempt = 0; attempt < attempts; attempt++) {
            const baseTip = await refTarget(dir, ref);
            if (!baseTip) throw new Conflict(`base branch does not exist [name: ${pull.baseBranch}]`);
            const sign = input.style === 'fast-forward-only' ? undefined : await this.signing.signer('merges', {
              actor, dir, base: baseTip, head: headTip, approved: () => this.approved(loaded, view, headTip),
            });
            const sha = await this.build(dir, { style: input.style, baseTip, headTip, message: input.message, committer, issue, sign });
            if (sha === baseTip) {
              // Nothing to bring (the change is already on the base): merged without moving the branch.
              await this.record(loaded, view, actor, { sha, auto: !!input.auto, events: [] });
              return true;
            }
            await this.deps.db.update(pullRequests).set({ mergePending: { ...pending, sha, from: baseTip } }).where(eq(pullRequests.id, pull.id));
            // The commits the merge brings are read from git while the ref moves.
            const events = this.branches.refEvents(loaded, actor.id, [{ ref, before: baseTip, after: sha }], [baseTip]);
            events.catch(() => undefined);
            try {
              await moveRef(dir, ref, sha, baseTip);
            } catch (err) {
              if (err instanceof GitError) continue; // the base moved: build again on its new tip
              throw err;
            }
            moved = true;
            await this.record(loaded, view, actor, { sha, auto: !!input.auto, events: await events });
            return true;
          }
          return false;
        });
        if (!done) throw new Conflict('merge push out of date');
      }
    } catch (err) {
      if (err instanceof MergeConflict) {
        await this.deps.db.update(pullRequests).set({ mergeable: false }).where(eq(pullRequests.id, pull.id));
        throw new Conflict(err.commit ? `rebase failed because of conflict in ${err.commit}: ${err.paths.join(', ')}` : `Merge Conflicts: ${err.paths.join(', ')}`);
      }
      throw err;
    } finally {
      if (!done && !moved) await this.release(pull, pending.at);
    }
    await this.branches.changed(loaded.repo.id, dir, actor.id);
    if (input.deleteBranch && input.style !== 'manually-merged') await this.deleteHead(loaded, view, actor);
  }

  /** The commit the base branch moves to (the base tip itself when there is nothing to bring). */
  private async build(
    dir: string,
    a: { style: MergeStyle; baseTip: string; headTip: string; message: string; committer: { name: string; email: string }; issue: IssueRow; sign?: CommitSigner },
  ): Promise<string> {
    const { style, baseTip, headTip, message, committer, sign } = a;
    if (await isAncestor(dir, headTip, baseTip)) return baseTip;
    const ff = await isAncestor(dir, baseTip, headTip);
    const rebased = async () => (ff ? headTip : replay(dir, baseTip, await commitsToReplay(dir, baseTip, headTip), committer, sign));
    switch (style) {
      case 'fast-forward-only':
        if (!ff) throw new Conflict('fast-forward-only merge is not possible: the base branch has commits the head branch lacks');
        return headTip;
      case 'rebase':
        return rebased();
      case 'rebase-merge': {
        const tip = await rebased();
        if (tip === baseTip) return baseTip;
        return commitTree(dir, await treeOf(dir, tip), [baseTip, tip], message, committer, committer, undefined, sign);
      }
      case 'squash': {
        const tree = await mergeTree(dir, baseTip, headTip);
        if (tree === (await treeOf(dir, baseTip))) return baseTip;
        // Gitea: the poster is the author; the merger, when someone else, is named as co-author.
        const [poster] = await this.deps.db.select().from(users).where(eq(users.id, a.issue.posterId));
        const author = poster ? signatureOf(poster, this.deps.config) : committer;
        const other = author.email !== committer.email || author.name !== committer.name;
        return commitTree(dir, tree, [baseTip], other ? `${message}\n\nCo-authored-by: ${committer.name} <${committer.email}>` : message, author, committer, undefined, sign);
      }
      default:
        return commitTree(dir, await mergeTree(dir, baseTip, headTip), [baseTip, headTip], message, committer, committer, undefined, sign);
    }
  }

  /** The `approved` signing rule: the base branch is protected and the pull request has an approval that counts. */
  private async approved(loaded: LoadedRepo, view: PullView, headTip: string): Promise<boolean> {
    const rule = await this.protections.ruleFor(loaded.repo.id, view.pull.baseBranch);
    if (!rule) return false;
    const reviews = await this.deps.db.select().from(pullReviews).where(eq(pullReviews.issueId, view.issue.id)).orderBy(asc(pullReviews.id));
    return (await this.protections.grantedApprovals(rule, reviews, headTip)) >= 1;
  }

  /** manually-merged: the full id of a commit on the base branch (409 "Wrong commit ID" otherwise). */
  private async manualCommit(dir: string, pull: PullRequestRow, id: string): Promise<string> {
    const wrong = () => new Conflict('Wrong commit ID');
    if (!/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(id)) throw wrong();
    const baseTip = await refTarget(dir, `refs/heads/${pull.baseBranch}`);
    if (!baseTip || (await objectType(dir, id)) !== 'commit' || !(await isAncestor(dir, id, baseTip))) throw wrong();
    return id;
  }

  /**
   * The merged state, its comment, the push and the closed pull request's events, and the issues the pull
   * request closes or reopens with a keyword (closeByReference.ts), in one transaction: once per merge.
   */
  private async record(loaded: Target, view: PullView, actor: UserRow, m: { sha: string; auto: boolean; events: DomainEvent[] }): Promise<void> {
    const { pull, issue } = view;
    const now = new Date();
    await withTx(this.deps.db, async (tx) => {
      const [row] = await tx.update(pullRequests)
        .set({ merged: true, mergedAt: now, mergedById: actor.id, mergeCommitSha: m.sha, mergePending: null })
        .where(and(eq(pullRequests.id, pull.id), eq(pullRequests.merged, false)))
        .returning({ id: pullRequests.id });
      if (!row) return; // recorded already (a pending merge completed by another process)
      const closedNow = await tx.update(issues).set({ isClosed: true, closedAt: now, updatedAt: now })
        .where(and(eq(issues.id, issue.id), eq(issues.isClosed, false))).returning({ id: issues.id });
      if (!closedNow.length) await tx.update(issues).set({ updatedAt: now }).where(eq(issues.id, issue.id));
      await tx.delete(pullAutoMerges).where(eq(pullAutoMerges.pullId, pull.id));
      await tx.insert(comments).values({ issueId: issue.id, repoId: issue.repoId, posterId: actor.id, type: 'merge_pull', newValue: m.sha });
      // The closed count moves by one when this update closed the pull request (not when it was closed already).
      if (closedNow.length) await shiftRepoIssues(tx, issue.repoId, { isPull: true, closed: 1 });
      await recordEvents(this.deps, tx, [...m.events, {
        type: 'pull_request', action: 'closed', issueId: issue.id, ...inRepo(loaded.repo, actor.id),
        activity: { opType: m.auto ? 'auto_merge_pull_request' : 'merge_pull_request', issueId: issue.id, content: issueContent(issue.index, issue.title) },
      }]);
      await closeReferencedByPull(this.deps, tx, issue, actor, m.sha);
    });
  }

  /**
   * A merge claimed longer ago than the lease: when its commit reached the base branch (its process died
   * after moving it) it is recorded now, as its merger; otherwise the claim is dropped. Answers whether
   * the row changed.
   */
  async settlePending(loaded: Target, pull: PullRequestRow): Promise<boolean> {
    const p = pull.mergePending;
    if (!p || pull.merged || Date.parse(p.at) > Date.now() - leaseMs) return false;
    const dir = this.pulls.dir(loaded);
    const baseTip = await refTarget(dir, `refs/heads/${pull.baseBranch}`);
    if (p.sha && baseTip && (await isAncestor(dir, p.sha, baseTip))) {
      const [actor] = await this.deps.db.select().from(users).where(eq(users.id, p.byId));
      const [issue] = await this.deps.db.select().from(issues).where(eq(issues.id, pull.issueId));
      if (actor && issue) {
        const ref = `refs/heads/${pull.baseBranch}`;
        const events = p.from ? await this.branches.refEvents(loaded, p.byId, [{ ref, before: p.from, after: p.sha }], [p.from]) : [];
        await this.record(loaded, { pull, issue }, actor, { sha: p.sha, auto: !!p.auto, events });
        return true;
      }
    }
    await this.release(pull, p.at);
    return true;
  }

  /**
   * delete_branch_after_merge: the head branch goes unless it is the default or another open pull request
   * uses it. A branch of another repository (a fork) goes only when the merger may write that repository
   * (Gitea's CanDeleteBranch); otherwise it stays, and the merge stands.
   */
  private async deleteHead(loaded: LoadedRepo, view: PullView, actor: UserRow): Promise<void> {
    const { pull, issue } = view;
    const head = await headRepoOf(this.pulls, loaded, pull, actor);
    if (!head || (fromOtherRepo(pull) && !canWrite(head.perm, 'repo.code'))) return;
    if (pull.headBranch === head.repo.defaultBranch) return;
    const [other] = await this.deps.db.select({ id: pullRequests.id }).from(pullRequests)
      .innerJoin(issues, eq(issues.id, pullRequests.issueId))
      .where(and(
        eq(pullRequests.merged, false), eq(issues.isClosed, false),
        or(
          and(eq(pullRequests.headRepoId, head.repo.id), eq(pullRequests.headBranch, pull.headBranch)),
          and(eq(pullRequests.repoId, head.repo.id), eq(pullRequests.baseBranch, pull.headBranch)),
        ),
      ))
      .limit(1);
    if (other) return;
    try {
      await this.branches.delete(head, actor, pull.headBranch);
    } catch (err) {
      // Deleted meanwhile, or protected: it stays.
      if (err instanceof NotFound || err instanceof Forbidden) return;
      throw err;
    }
    await this.deps.db.insert(comments).values({ issueId: issue.id, repoId: issue.repoId, posterId: actor.id, type: 'delete_branch', oldValue: pull.headBranch });
  }
}
