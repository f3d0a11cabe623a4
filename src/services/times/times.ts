// Tracked time on issues and pull requests: added by hand, listed per issue, repository or user, deleted by
// its own user. The repository's time tracker settings decide who may track (Gitea's CanUseTimetracker).
import { and, asc, count, eq, gte, lte, type SQL } from 'drizzle-orm';
import { comments, issues, trackedTimes, users, type IssueRow, type TrackedTimeRow, type UserRow } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { canRead, canWrite, isRepoAdmin, type RepoPermission } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import { canWriteIssue, readableIssues } from '../issues/issues.js';
import type { AccessService, RepoReach } from '../repos/access.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

export interface TimeFilter {
  /** A user name: only that user's times. */
  user?: string;
  since?: Date;
  before?: Date;
}

export interface TimeEntry {
  time: TrackedTimeRow;
  /** Null when the account is gone (shown as the ghost user). */
  user: UserRow | null;
  issue: IssueRow;
}


/** Times are kept to the second, as they are shown (and as Gitea keeps them), so `since`/`before` match what a client saw. */
const wholeSecond = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);

/** Whether `actor` may track time on `issue` (the tracker is on, and they contribute or are its poster). */
export function canTrackTime(loaded: LoadedRepo, issue: IssueRow, actor: UserRow): boolean {
  const { repo, perm } = loaded;
  return repo.enableTimeTracker && (!repo.allowOnlyContributorsToTrackTime || canWriteIssue(perm, issue.isPull) || issue.posterId === actor.id);
}

/** Writes of tracked time: 400 when the tracker is off, 403 for a caller who may not track, 423 when archived. */
export function requireTimeTracking(loaded: LoadedRepo, issue: IssueRow, actor: UserRow): void {
  if (!canTrackTime(loaded, issue, actor)) {
    if (!loaded.repo.enableTimeTracker) throw new BadRequest('time tracking disabled');
    throw new Forbidden('only contributors and the poster may track time on this issue');
  }
  if (loaded.repo.isArchived) throw new RepoArchived();
}

/**
 * Gitea's timeline text of tracked time: the seconds after a `|` (the converter writes them as hours and
 * minutes, as Gitea's API does).
 */
export const timeText = (seconds: number) => `|${seconds}`;

/**
 * One stopwatch's run in whole seconds, recorded as a tracked time when it is one second or more, and its
 * `stop_tracking` timeline entry (Gitea's FinishIssueStopwatch).
 */
export async function recordRun(tx: Db, run: { userId: number; issueId: number; repoId: number; createdAt: Date }, now: Date): Promise<void> {
  const seconds = Math.max(0, Math.floor((now.getTime() - run.createdAt.getTime()) / 1000));
  const [time] = seconds < 1 ? [] : await tx.insert(trackedTimes)
    .values({ userId: run.userId, issueId: run.issueId, repoId: run.repoId, time: seconds, createdAt: wholeSecond(now) })
    .returning({ id: trackedTimes.id });
  await tx.insert(comments).values({
    issueId: run.issueId, repoId: run.repoId, posterId: run.userId, type: 'stop_tracking', body: timeText(seconds), timeId: time?.id ?? null, createdAt: now, updatedAt: now,
  });
}

export class TimeService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
  ) {}

  /** GET .../issues/{index}/times: 404 when the tracker is off (Gitea's message). */
  async listForIssue(loaded: LoadedRepo, issue: IssueRow, actor: UserRow, f: TimeFilter, page: { limit: number; offset: number }) {
    if (!loaded.repo.enableTimeTracker) throw new NotFound('Timetracker is disabled');
    const userId = await this.whose(f.user, actor, actor.isAdmin || canWriteIssue(loaded.perm, issue.isPull));
    return this.page(and(eq(trackedTimes.issueId, issue.id), this.filter(userId, f))!, page);
  }

  /** GET /repos/{o}/{r}/times: the issue unit must be readable; pull-request times only with the pulls unit. */
  async listForRepo(loaded: LoadedRepo, actor: UserRow, f: TimeFilter, page: { limit: number; offset: number }) {
    if (!canRead(loaded.perm, 'repo.issues')) throw new NotFound();
    if (!loaded.repo.enableTimeTracker) throw new BadRequest('time tracking disabled');
    const userId = await this.whose(f.user, actor, actor.isAdmin || canWrite(loaded.perm, 'repo.issues'));
    return this.page(and(eq(trackedTimes.repoId, loaded.repo.id), this.pullsUnless(loaded.perm), this.filter(userId, f))!, page);
  }

  /** GET /repos/{o}/{r}/times/{user}: repository or site administrators, or the user. */
  async listForUserInRepo(loaded: LoadedRepo, actor: UserRow, username: string, page: { limit: number; offset: number }) {
    if (!canRead(loaded.perm, 'repo.issues')) throw new NotFound();
    if (!loaded.repo.enableTimeTracker) throw new BadRequest('time tracking disabled');
    const user = await this.userNamed(username);
    if (!isRepoAdmin(loaded.perm) && !actor.isAdmin && actor.id !== user.id) throw new Forbidden('query by user not allowed; not enough rights');
    return this.page(and(eq(trackedTimes.repoId, loaded.repo.id), eq(trackedTimes.userId, user.id), this.pullsUnless(loaded.perm))!, page);
  }

  /** GET /user/times: the caller's own times, in repositories (and units) the caller can still read. */
  async listMine(actor: UserRow, f: TimeFilter, page: { limit: number; offset: number }): Promise<{ rows: TimeEntry[]; total: number; reach: RepoReach }> {
    const mine = eq(trackedTimes.userId, actor.id);
    const ids = (await this.deps.db.selectDistinct({ id: trackedTimes.repoId }).from(trackedTimes).where(mine)).map((r) => r.id);
    const reach = await this.access.reposById(ids, actor);
    return { ...(await this.page(and(mine, readableIssues(reach), this.filter(undefined, f))!, page)), reach };
  }

  /** POST .../issues/{index}/times. `userName` records for another user (repository or site administrators only). */
  async add(loaded: LoadedRepo, issue: IssueRow, actor: UserRow, input: { time: number; created?: Date; userName?: string }): Promise<TimeEntry> {
    requireTimeTracking(loaded, issue, actor);
    if (!Number.isSafeInteger(input.time) || input.time < 1) throw new Invalid('[time]: must be a whole number of seconds, 1 or more');
    let user = actor;
    const other = input.userName?.trim();
    if (other && other.toLowerCase() !== actor.lowerName && (isRepoAdmin(loaded.perm) || actor.isAdmin)) {
      const found = await this.deps.db.select().from(users).where(eq(users.lowerName, other.toLowerCase()));
      if (!found[0] || found[0].type === 'Organization') throw new Invalid(`user does not exist [name: ${other}]`);
      user = found[0];
    }
    const time = await withTx(this.deps.db, async (tx) => {
      const [row] = await tx
        .insert(trackedTimes)
        .values({ issueId: issue.id, repoId: issue.repoId, userId: user.id, time: input.time, createdAt: wholeSecond(input.created ?? new Date()) })
        .returning();
      // Gitea's AddTime: the entry is the time's user's.
      await tx.insert(comments).values({ issueId: issue.id, repoId: issue.repoId, posterId: user.id, type: 'add_time_manual', body: timeText(input.time), timeId: row!.id });
      return row!;
    });
    return { time, user, issue };
  }

  /** DELETE .../issues/{index}/times: all of the caller's times on the issue; 404 when there are none. */
  async resetMine(loaded: LoadedRepo, issue: IssueRow, actor: UserRow): Promise<void> {
    requireTimeTracking(loaded, issue, actor);
    await withTx(this.deps.db, async (tx) => {
      const gone = await tx
        .delete(trackedTimes)
        .where(and(eq(trackedTimes.issueId, issue.id), eq(trackedTimes.userId, actor.id)))
        .returning({ time: trackedTimes.time });
      if (gone.length === 0) throw new NotFound('no tracked time of yours on this issue');
      const total = gone.reduce((sum, g) => sum + g.time, 0);
      await tx.insert(comments).values({ issueId: issue.id, repoId: issue.repoId, posterId: actor.id, type: 'delete_time_manual', body: timeText(total) });
    });
  }

  /** DELETE .../issues/{index}/times/{id}: its own user or a site administrator. */
  async deleteOne(loaded: LoadedRepo, issue: IssueRow, actor: UserRow, id: number): Promise<void> {
    requireTimeTracking(loaded, issue, actor);
    await withTx(this.deps.db, async (tx) => {
      const [row] = await tx.select().from(trackedTimes).where(and(eq(trackedTimes.id, id), eq(trackedTimes.issueId, issue.id))).for('update');
      if (!row) throw new NotFound(`tracked time [${id}] does not exist on this issue`);
      if (!actor.isAdmin && row.userId !== actor.id) throw new Forbidden('only the site admin and the user who tracked it may delete a tracked time');
      await tx.delete(trackedTimes).where(eq(trackedTimes.id, id));
      // Gitea's DeleteTime: the entry is the time's user's, whoever deleted it.
      await tx.insert(comments).values({ issueId: issue.id, repoId: issue.repoId, posterId: row.userId, type: 'delete_time_manual', body: timeText(row.time) });
    });
  }

  /**
   * The user a list is about: the named one, or — for a caller who may not read others' times — the caller
   * (naming someone else is then 403, Gitea's message).
   */
  private async whose(name: string | undefined, actor: UserRow, seesAll: boolean): Promise<number | undefined> {
    const named = name?.trim() ? (await this.userNamed(name.trim())).id : undefined;
    if (seesAll || named === actor.id) return named;
    if (named !== undefined) throw new Forbidden('query by user not allowed; not enough rights');
    return actor.id;
  }

  private async userNamed(name: string): Promise<UserRow> {
    const [user] = await this.deps.db.select().from(users).where(eq(users.lowerName, name.toLowerCase()));
    if (!user || user.type === 'Organization') throw new NotFound(`user does not exist [name: ${name}]`);
    return user;
  }

  private filter(userId: number | undefined, f: TimeFilter): SQL | undefined {
    return and(
      userId === undefined ? undefined : eq(trackedTimes.userId, userId),
      f.since ? gte(trackedTimes.createdAt, f.since) : undefined,
      f.before ? lte(trackedTimes.createdAt, f.before) : undefined,
    );
  }

  /** Pull-request times only for callers who can read pull requests. */
  private pullsUnless(perm: RepoPermission): SQL | undefined {
    return canRead(perm, 'repo.pulls') ? undefined : eq(issues.isPull, false);
  }

  private async page(where: SQL, page: { limit: number; offset: number }): Promise<{ rows: TimeEntry[]; total: number }> {
    const [rows, [total]] = await Promise.all([
      this.deps.db
        .select({ time: trackedTimes, user: users, issue: issues })
        .from(trackedTimes)
        .innerJoin(issues, eq(issues.id, trackedTimes.issueId))
        .leftJoin(users, eq(users.id, trackedTimes.userId))
        .where(where)
        .orderBy(asc(trackedTimes.createdAt), asc(trackedTimes.id))
        .limit(page.limit)
        .offset(page.offset),
      this.deps.db.select({ n: count() }).from(trackedTimes).innerJoin(issues, eq(issues.id, trackedTimes.issueId)).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }
}
