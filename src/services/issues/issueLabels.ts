// The labels on an issue or pull request: what PATCH issue/pull sets, and the issue label endpoints
// (add, replace, remove, clear). Each change writes Gitea's `label` timeline comments, keeps the labels'
// counters exact and records the issue_label (pull_request_label) event, all in one transaction.
import { eq, sql } from 'drizzle-orm';
import { issues, labels, type LabelRow, type UserRow } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import { recountLabels } from './counters.js';
import { canWriteIssue, type IssueService } from './issues.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { dropDuplicateScopes, exclusiveScope, labelsOfIssue, usableLabelsById, usableLabelsByName, writeIssueLabels } from './labelRows.js';

export { dropDuplicateScopes, exclusiveScope, labelsOfIssue, usableLabelsById, writeIssueLabels } from './labelRows.js';

/** `labels` of IssueLabelsOption: all ids or all names (Gitea answers 400 for a mix). */
export type LabelRefs = Array<number | string>;

export class IssueLabelService {
  constructor(private readonly deps: ServiceDeps, private readonly issues: IssueService) {}

  async list(loaded: LoadedRepo, index: number): Promise<LabelRow[]> {
    const issue = await this.issues.load(loaded, index);
    return labelsOfIssue(this.deps.db, issue.id);
  }

  /** Adds labels; an added exclusive label replaces the issue's others of its scope. Answers all the issue's labels. */
  add(loaded: LoadedRepo, actor: UserRow, index: number, refs: LabelRefs): Promise<LabelRow[]> {
    return this.change(loaded, actor, index, async (tx, current) => {
      const next = [...current];
      for (const l of await this.resolve(tx, loaded, refs)) {
        if (next.some((c) => c.id === l.id)) continue;
        const scope = exclusiveScope(l);
        const kept = scope ? next.filter((c) => exclusiveScope(c) !== scope) : next;
        next.splice(0, next.length, ...kept, l);
      }
      return { next: next.map((l) => l.id), action: 'label_updated' };
    });
  }

  replace(loaded: LoadedRepo, actor: UserRow, index: number, refs: LabelRefs): Promise<LabelRow[]> {
    return this.change(loaded, actor, index, async (tx) => ({
      next: dropDuplicateScopes(await this.resolve(tx, loaded, refs)).map((l) => l.id),
      action: 'label_updated',
    }));
  }

  async remove(loaded: LoadedRepo, actor: UserRow, index: number, labelId: number): Promise<void> {
    await this.change(loaded, actor, index, async (tx, current) => {
      // A label of another repository (or organization) is no label of this issue's: answered as a missing
      // one, whether or not it exists elsewhere, so the answer tells nothing about other repositories.
      const [exists] = await usableLabelsById(tx, loaded, [labelId]);
      if (!exists) throw new Invalid(`label does not exist [label_id: ${labelId}]`);
      return { next: current.filter((l) => l.id !== labelId).map((l) => l.id), action: 'label_updated' };
    });
  }

  async clear(loaded: LoadedRepo, actor: UserRow, index: number): Promise<void> {
    await this.change(loaded, actor, index, async () => ({ next: [], action: 'label_cleared' }));
  }

  private async resolve(tx: Db, loaded: LoadedRepo, refs: LabelRefs): Promise<LabelRow[]> {
    const ids = refs.filter((r): r is number => typeof r === 'number');
    const names = refs.filter((r): r is string => typeof r === 'string');
    if (ids.length && names.length) throw new BadRequest('labels should be an array of strings or integers');
    return names.length ? usableLabelsByName(tx, loaded, names) : usableLabelsById(tx, loaded, ids);
  }

  /** The issue (404), the caller's write access to it (403), then the change in one transaction, with the issue row locked. */
  private async change(
    loaded: LoadedRepo, actor: UserRow, index: number,
    decide: (tx: Db, current: LabelRow[]) => Promise<{ next: number[]; action: 'label_updated' | 'label_cleared' }>,
  ): Promise<LabelRow[]> {
    const issue = await this.issues.load(loaded, index);
    if (!canWriteIssue(loaded.perm, issue.isPull)) throw new Forbidden('write permission is required');
    if (loaded.repo.isArchived) throw new RepoArchived();
    return withTx(this.deps.db, async (tx) => {
      const [locked] = await tx.select({ id: issues.id }).from(issues).where(eq(issues.id, issue.id)).for('update');
      if (!locked) throw new NotFound();
      const { next, action } = await decide(tx, await labelsOfIssue(tx, issue.id));
      const { before, added, removed } = await writeIssueLabels(tx, issue, actor.id, next);
      if (added.length || removed.length) {
        await tx.update(issues).set({ updatedAt: sql`now()` }).where(eq(issues.id, issue.id));
        await recountLabels(tx, [...before, ...added]);
        await recordEvent(this.deps, tx, {
          type: issue.isPull ? 'pull_request_label' : 'issue_label', action, issueId: issue.id, ...inRepo(loaded.repo, actor.id),
        });
      }
      return labelsOfIssue(tx, issue.id);
    });
  }
}
