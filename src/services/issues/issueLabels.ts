// The labels on an issue or pull request: what PATCH issue/pull sets, and the issue label endpoints
// (add, replace, remove, clear). Each change writes Gitea's `label` timeline comments, keeps the labels'
// counters exact and records the issue_label (pull_request_label) event, all in one transaction.
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { comments, issueLabels, issues, labels, type IssueRow, type LabelRow, type UserRow } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import { recountLabels } from './counters.js';
import { canWriteIssue, type IssueService } from './issues.js';
import type { LoadedRepo } from '../repos/repos.js';

/** Gitea's exclusive scope: the name up to its last `/` for an exclusive label, none otherwise. */
export function exclusiveScope(l: Pick<LabelRow, 'name' | 'exclusive'>): string {
  if (!l.exclusive) return '';
  const i = l.name.lastIndexOf('/');
  return i <= 0 || i === l.name.length - 1 ? '' : l.name.slice(0, i);
}

/** Of several labels of one exclusive scope, the last one given stays (Gitea's rule). */
export function dropDuplicateScopes<T extends Pick<LabelRow, 'name' | 'exclusive'>>(given: T[]): T[] {
  return given.filter((l, i) => {
    const scope = exclusiveScope(l);
    return !scope || !given.slice(i + 1).some((o) => exclusiveScope(o) === scope);
  });
}

/** Labels an issue of this repository may carry: the repository's own and its organization's. */
const usableIn = (loaded: LoadedRepo) =>
  or(eq(labels.repoId, loaded.repo.id), loaded.owner.type === 'Organization' ? and(eq(labels.orgId, loaded.owner.id), isNull(labels.repoId)) : undefined)!;

/** The usable labels among `ids`, in the order given, each once; the others are dropped (as Gitea). */
export async function usableLabelsById(tx: Db, loaded: LoadedRepo, ids: number[]): Promise<LabelRow[]> {
  if (ids.length === 0) return [];
  const rows = await tx.select().from(labels).where(and(inArray(labels.id, [...new Set(ids)]), usableIn(loaded)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return [...new Set(ids)].flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/** The usable labels with these exact names, in the order of the names. */
async function usableLabelsByName(tx: Db, loaded: LoadedRepo, names: string[]): Promise<LabelRow[]> {
  if (names.length === 0) return [];
  const rows = await tx.select().from(labels).where(and(inArray(labels.name, [...new Set(names)]), usableIn(loaded))).orderBy(asc(labels.id));
  const seen = new Set<number>();
  return names.flatMap((n) => rows.filter((r) => r.name === n && !seen.has(r.id) && seen.add(r.id)));
}

export async function labelsOfIssue(tx: Db, issueId: number): Promise<LabelRow[]> {
  const rows = await tx.select({ label: labels }).from(issueLabels).innerJoin(labels, eq(labels.id, issueLabels.labelId))
    .where(eq(issueLabels.issueId, issueId)).orderBy(asc(labels.name), asc(labels.id));
  return rows.map((r) => r.label);
}

/**
 * Sets the issue's labels to `next` (ids): deletes and inserts only the difference and writes one `label`
 * comment per label added (content `1`) or removed (empty), as Gitea. Counters and events are the caller's.
 */
export async function writeIssueLabels(tx: Db, issue: IssueRow, actorId: number, next: number[]): Promise<{ before: number[]; added: number[]; removed: number[] }> {
  const before = (await tx.select({ id: issueLabels.labelId }).from(issueLabels).where(eq(issueLabels.issueId, issue.id))).map((r) => r.id);
  const wanted = new Set(next);
  const added = [...wanted].filter((id) => !before.includes(id));
  const removed = before.filter((id) => !wanted.has(id));
  if (removed.length) await tx.delete(issueLabels).where(and(eq(issueLabels.issueId, issue.id), inArray(issueLabels.labelId, removed)));
  if (added.length) await tx.insert(issueLabels).values(added.map((labelId) => ({ issueId: issue.id, labelId })));
  const change = [...removed.map((id) => ({ id, body: '' })), ...added.map((id) => ({ id, body: '1' }))];
  if (change.length) {
    await tx.insert(comments).values(change.map((c) => ({ issueId: issue.id, repoId: issue.repoId, posterId: actorId, type: 'label' as const, body: c.body, newValue: String(c.id) })));
  }
  return { before, added, removed };
}

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
      const [exists] = await tx.select({ id: labels.id }).from(labels).where(and(eq(labels.id, labelId), usableIn(loaded)));
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
