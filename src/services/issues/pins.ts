// Pinned issues and pull requests (#38), as Gitea: each repository pins up to MAX_PINNED issues and as many
// pull requests, in an order kept in issues.pin_order (1, 2, …; 0 = not pinned). Every change to the order
// happens in one transaction with the repository's row locked, so concurrent pins never share a place.
import { and, asc, count, eq, gt, gte, lte, ne, sql } from 'drizzle-orm';
import { comments, issues, pullRequests, repositories, type IssueRow, type UserRow } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { canRead, isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import type { PullView } from '../pulls/pullTypes.js';
import type { IssueService } from './issues.js';

/** Gitea's `[repository.issue] MAX_PINNED` default: pinned issues (and, apart, pinned pull requests) per repository. */
export const MAX_PINNED = 3;

export class PinService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly issues: IssueService,
  ) {}

  /** The issue (404 when it cannot be read), then repository administrators only (403), then not archived (423). */
  private async writable(loaded: LoadedRepo, index: number, actor: UserRow): Promise<IssueRow> {
    const issue = await this.issues.load(loaded, index);
    if (!isRepoAdmin(loaded.perm) && !actor.isAdmin) throw new Forbidden('must be a repository administrator');
    if (loaded.repo.isArchived) throw new RepoArchived();
    return issue;
  }

  /** Locks the repository's row (serialising every pin change of the repository) and re-reads the issue. */
  private async current(tx: Db, issue: IssueRow): Promise<IssueRow> {
    await PinService.lockRepo(tx, issue.repoId);
    const [row] = await tx.select().from(issues).where(eq(issues.id, issue.id)).for('update');
    if (!row) throw new NotFound();
    return row;
  }

  /** Closes the gap a pinned issue leaves when it is deleted (in the deleting transaction, after lockRepo). */
  static async closeGap(tx: Db, issue: IssueRow): Promise<void> {
    if (issue.pinOrder === 0) return;
    await tx.update(issues).set({ pinOrder: sql`${issues.pinOrder} - 1` })
      .where(and(eq(issues.repoId, issue.repoId), eq(issues.isPull, issue.isPull), gt(issues.pinOrder, issue.pinOrder)));
  }

  /** The repository row lock every change of a repository's pin order takes first. */
  static async lockRepo(tx: Db, repoId: number): Promise<void> {
    await tx.select({ id: repositories.id }).from(repositories).where(eq(repositories.id, repoId)).for('no key update');
  }

  private sameKind(issue: IssueRow) {
    return and(eq(issues.repoId, issue.repoId), eq(issues.isPull, issue.isPull));
  }

  private async pinnedCount(tx: Db, issue: IssueRow): Promise<number> {
    const [n] = await tx.select({ n: count() }).from(issues).where(and(this.sameKind(issue), gt(issues.pinOrder, 0)));
    return Number(n?.n ?? 0);
  }

  /** Pins at the end; a pinned issue stays as it is; 400 when MAX_PINNED of its kind are pinned. */
  async pin(loaded: LoadedRepo, index: number, actor: UserRow): Promise<void> {
    const issue = await this.writable(loaded, index, actor);
    await withTx(this.deps.db, async (tx) => {
      const row = await this.current(tx, issue);
      if (row.pinOrder > 0) return;
      const pinned = await this.pinnedCount(tx, row);
      if (pinned >= MAX_PINNED) throw new BadRequest(`the maximum of ${MAX_PINNED} pinned ${row.isPull ? 'pull requests' : 'issues'} has been reached`);
      const [last] = await tx.select({ max: sql<number | string | null>`max(${issues.pinOrder})` }).from(issues).where(this.sameKind(row));
      await tx.update(issues).set({ pinOrder: Number(last?.max ?? 0) + 1 }).where(eq(issues.id, row.id));
      await tx.insert(comments).values({ issueId: row.id, repoId: row.repoId, posterId: actor.id, type: 'pin' });
    });
  }

  /** Unpins and closes the gap; an unpinned issue stays as it is. */
  async unpin(loaded: LoadedRepo, index: number, actor: UserRow): Promise<void> {
    const issue = await this.writable(loaded, index, actor);
    await withTx(this.deps.db, async (tx) => {
      const row = await this.current(tx, issue);
      if (row.pinOrder === 0) return;
      await tx.update(issues).set({ pinOrder: 0 }).where(eq(issues.id, row.id));
      await tx.update(issues).set({ pinOrder: sql`${issues.pinOrder} - 1` }).where(and(this.sameKind(row), gt(issues.pinOrder, row.pinOrder)));
      await tx.insert(comments).values({ issueId: row.id, repoId: row.repoId, posterId: actor.id, type: 'unpin' });
    });
  }

  /** Moves a pinned issue to `position` (past the end = last), shifting those in between; an unpinned one stays. */
  async move(loaded: LoadedRepo, index: number, actor: UserRow, position: number): Promise<void> {
    const issue = await this.writable(loaded, index, actor);
    if (!Number.isSafeInteger(position) || position < 1) throw new Invalid('position must be 1 or more');
    await withTx(this.deps.db, async (tx) => {
      const row = await this.current(tx, issue);
      if (row.pinOrder === 0) return;
      const to = Math.min(position, await this.pinnedCount(tx, row));
      const from = row.pinOrder;
      if (to === from) return;
      const others = and(this.sameKind(row), ne(issues.id, row.id), gt(issues.pinOrder, 0));
      if (to < from) {
        await tx.update(issues).set({ pinOrder: sql`${issues.pinOrder} + 1` }).where(and(others, gte(issues.pinOrder, to), lte(issues.pinOrder, from)));
      } else {
        await tx.update(issues).set({ pinOrder: sql`${issues.pinOrder} - 1` }).where(and(others, gte(issues.pinOrder, from), lte(issues.pinOrder, to)));
      }
      await tx.update(issues).set({ pinOrder: to }).where(eq(issues.id, row.id));
    });
  }

  /** The pinned issues (not pull requests) in pin order; 404 for those who cannot read the issues. */
  async pinnedIssues(loaded: LoadedRepo): Promise<IssueRow[]> {
    if (!canRead(loaded.perm, 'repo.issues')) throw new NotFound();
    return this.deps.db.select().from(issues)
      .where(and(eq(issues.repoId, loaded.repo.id), eq(issues.isPull, false), gt(issues.pinOrder, 0))).orderBy(asc(issues.pinOrder), asc(issues.id));
  }

  /** The pinned pull requests in pin order; 404 for those who cannot read the code and pull requests. */
  async pinnedPulls(loaded: LoadedRepo): Promise<PullView[]> {
    if (!canRead(loaded.perm, 'repo.code') || !canRead(loaded.perm, 'repo.pulls')) throw new NotFound();
    return this.deps.db.select({ issue: issues, pull: pullRequests }).from(issues).innerJoin(pullRequests, eq(pullRequests.issueId, issues.id))
      .where(and(eq(issues.repoId, loaded.repo.id), eq(issues.isPull, true), gt(issues.pinOrder, 0))).orderBy(asc(issues.pinOrder), asc(issues.id));
  }

  /** Whether another issue / pull request may be pinned. */
  async newPinAllowed(loaded: LoadedRepo): Promise<{ issues: boolean; pull_requests: boolean }> {
    const rows = await this.deps.db.select({ isPull: issues.isPull, n: count() }).from(issues)
      .where(and(eq(issues.repoId, loaded.repo.id), gt(issues.pinOrder, 0))).groupBy(issues.isPull);
    const n = (isPull: boolean) => Number(rows.find((r) => r.isPull === isPull)?.n ?? 0);
    return { issues: n(false) < MAX_PINNED, pull_requests: n(true) < MAX_PINNED };
  }
}
