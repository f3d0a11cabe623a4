// Stopwatches: a user runs at most one (starting another stops the running one and records its time,
// as Gitea does); stopping records the whole seconds it ran, cancelling records nothing.
import { and, desc, eq } from 'drizzle-orm';
import { comments, issues, repositories, stopwatches, users, type IssueRow, type RepoRow, type StopwatchRow, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { canRead } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Forbidden, RepoArchived } from '../errors.js';
import { canWriteIssue, issueUnit } from '../issues/issues.js';
import type { AccessService } from '../repos/access.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { canTrackTime, recordRun } from './times.js';

export interface StopwatchEntry {
  stopwatch: StopwatchRow;
  issue: IssueRow;
  repo: RepoRow;
  owner: UserRow;
}

/** Gitea's prepareIssueStopwatch: issue writers on a repository whose tracker lets them (403), not archived (423). */
function requireStopwatch(loaded: LoadedRepo, issue: IssueRow, actor: UserRow): void {
  if (!canWriteIssue(loaded.perm, issue.isPull) || !canTrackTime(loaded, issue, actor)) {
    throw new Forbidden('user should have a permission to write to a repo and the time tracker enabled');
  }
  if (loaded.repo.isArchived) throw new RepoArchived();
}

export class StopwatchService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
  ) {}

  async start(loaded: LoadedRepo, issue: IssueRow, actor: UserRow): Promise<void> {
    requireStopwatch(loaded, issue, actor);
    await withTx(this.deps.db, async (tx) => {
      const now = new Date();
      const [running] = await tx.select().from(stopwatches).where(eq(stopwatches.userId, actor.id)).for('update');
      if (running?.issueId === issue.id) throw new Conflict('cannot start a stopwatch again if it already exists');
      if (running) {
        await tx.delete(stopwatches).where(eq(stopwatches.id, running.id));
        await recordRun(tx, running, now);
      }
      const started = await tx
        .insert(stopwatches)
        .values({ userId: actor.id, issueId: issue.id, repoId: issue.repoId, createdAt: now })
        .onConflictDoNothing()
        .returning({ id: stopwatches.id });
      // Another request of the same user started one between our read and our insert.
      if (started.length === 0) throw new Conflict('another stopwatch was started at the same moment');
      await tx.insert(comments).values({ issueId: issue.id, repoId: issue.repoId, posterId: actor.id, type: 'start_tracking', createdAt: now, updatedAt: now });
    });
  }

  /** Stops the caller's stopwatch on the issue and records its time; 409 when none runs there. */
  async stop(loaded: LoadedRepo, issue: IssueRow, actor: UserRow): Promise<void> {
    requireStopwatch(loaded, issue, actor);
    await withTx(this.deps.db, async (tx) => {
      const [run] = await tx
        .delete(stopwatches)
        .where(and(eq(stopwatches.userId, actor.id), eq(stopwatches.issueId, issue.id)))
        .returning();
      if (!run) throw new Conflict('cannot stop a non-existent stopwatch');
      await recordRun(tx, run, new Date());
    });
  }

  /** Cancels the caller's stopwatch on the issue without recording; 409 when none runs there. */
  async cancel(loaded: LoadedRepo, issue: IssueRow, actor: UserRow): Promise<void> {
    requireStopwatch(loaded, issue, actor);
    await withTx(this.deps.db, async (tx) => {
      const gone = await tx
        .delete(stopwatches)
        .where(and(eq(stopwatches.userId, actor.id), eq(stopwatches.issueId, issue.id)))
        .returning({ id: stopwatches.id });
      if (gone.length === 0) throw new Conflict('cannot cancel a non-existent stopwatch');
      await tx.insert(comments).values({ issueId: issue.id, repoId: issue.repoId, posterId: actor.id, type: 'cancel_tracking' });
    });
  }

  /** GET /user/stopwatches: the caller's running stopwatch (at most one), where they can still read the issue. */
  async list(actor: UserRow, page: { limit: number; offset: number }): Promise<{ rows: StopwatchEntry[]; total: number }> {
    const rows = await this.deps.db
      .select({ stopwatch: stopwatches, issue: issues, repo: repositories, owner: users })
      .from(stopwatches)
      .innerJoin(issues, eq(issues.id, stopwatches.issueId))
      .innerJoin(repositories, eq(repositories.id, stopwatches.repoId))
      .innerJoin(users, eq(users.id, repositories.ownerId))
      .where(eq(stopwatches.userId, actor.id))
      .orderBy(desc(stopwatches.createdAt), desc(stopwatches.id));
    const perms = await this.access.repoPermissions(rows, actor);
    const visible = rows.filter((r) => canRead(perms.get(r.repo.id)!, issueUnit(r.issue.isPull)));
    return { rows: visible.slice(page.offset, page.offset + page.limit), total: visible.length };
  }
}
