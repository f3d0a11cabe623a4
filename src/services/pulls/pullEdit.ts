// PATCH of a pull request: the issue fields through IssueService.edit (inside this transaction), plus
// the base branch and allow_maintainer_edit, with Gitea's statuses. Git runs before the transaction.
import { and, eq } from 'drizzle-orm';
import { comments, issueCounters, pullRequests, type PullRequestRow, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { Conflict, Forbidden, Invalid, NotFound, PreconditionFailed } from '../errors.js';
import { canWriteIssue, type EditIssueInput } from '../issues/issues.js';
import { fromOtherRepo, type ChangedPull, type PullHost } from './pullTypes.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

/** Gitea's work-in-progress title prefixes: such a pull request is a draft and not mergeable. */
export const isWorkInProgress = (title: string) => /^(wip:|\[wip\])/i.test(title);

export interface EditPullInput extends EditIssueInput {
  base?: string;
  allowMaintainerEdit?: boolean;
}

export async function editPull(pulls: PullHost, loaded: LoadedRepo, index: number, actor: UserRow, input: EditPullInput): Promise<ChangedPull> {
  const { issue, pull } = await pulls.load(loaded, index);
  const poster = actor.id === issue.posterId;
  if (!poster && !canWriteIssue(loaded.perm, true)) throw new Forbidden('user should be the poster or a writer');
  // Gitea's SetAllowEdits: only the poster decides whether maintainers may push to the head branch.
  if (input.allowMaintainerEdit !== undefined && !poster) throw new Forbidden('only the poster may change allow_maintainer_edit');
  if (input.state !== undefined) {
    if (pull.merged) throw new PreconditionFailed('cannot change state of this pull request, it was already merged');
    if (input.state !== 'open' && input.state !== 'closed') throw new PreconditionFailed('unknown state');
  }
  const newBase = input.base && input.base !== pull.baseBranch ? input.base : undefined;
  if (newBase && pull.merged) throw new Conflict('the pull request is already merged: its base cannot change');
  const base = newBase ?? pull.baseBranch;
  const ends = pull.merged ? {} : await pulls.ends(loaded, { issue, pull }, base);
  if (newBase) {
    if (!ends.baseTip) throw new NotFound(`new base '${newBase}' not exist`);
    const closed = input.state !== undefined ? input.state === 'closed' : issue.isClosed;
    if (closed) throw new Invalid(`the pull request is closed: its base cannot change [id: ${issue.id}]`);
    if (newBase === pull.headBranch && !fromOtherRepo(pull)) throw new Invalid(`the head and the new base are the same branch [name: ${newBase}]`);
  }
  const stats = await pulls.resync(loaded, pull, ends, base);

  return withTx(pulls.deps.db, async (tx) => {
    if (newBase) {
      // The counter row serialises this check with pull request creations (they lock it too).
      await tx.select().from(issueCounters).where(eq(issueCounters.repoId, loaded.repo.id)).for('update');
      await pulls.requireNoOpenPull(tx, loaded.repo.id, pull.headRepoId, pull.headBranch, newBase, pull.id);
    }
    const edited = await pulls.issues.edit(
      loaded, issue, actor,
      { ...input, milestoneId: input.milestoneId || undefined },
      { merged: pull.merged, tx },
    );
    const set: Partial<PullRequestRow> = { ...stats, isDraft: isWorkInProgress(edited.title) };
    if (newBase) {
      set.baseBranch = newBase;
      set.baseSha = ends.baseTip!;
      await tx.insert(comments).values({
        issueId: issue.id, repoId: issue.repoId, posterId: actor.id, type: 'change_target_branch', oldValue: pull.baseBranch, newValue: newBase,
      });
    }
    if (input.allowMaintainerEdit !== undefined) set.allowMaintainerEdit = input.allowMaintainerEdit;
    // Merged meanwhile: the edit was checked against an unmerged pull request, so it is refused whole.
    const [row] = await tx.update(pullRequests).set(set).where(and(eq(pullRequests.id, pull.id), eq(pullRequests.merged, pull.merged))).returning();
    if (!row) throw new Conflict('the pull request was merged meanwhile');
    return { issue: edited, pull: row!, repo: await pulls.repoRow(tx, loaded.repo.id) };
  });
}
