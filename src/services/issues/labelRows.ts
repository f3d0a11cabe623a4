// The label rows of an issue: which labels it may carry, Gitea's exclusive scopes, and writing the
// difference with its timeline comments. Used by IssueService (create, edit) and IssueLabelService (the
// label endpoints), below both.
import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import { comments, issueLabels, labels, type IssueRow, type LabelRow } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

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
export async function usableLabelsByName(tx: Db, loaded: LoadedRepo, names: string[]): Promise<LabelRow[]> {
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
