// The rest of an issue's life (#38): deleting it with everything that hangs on it, locking, the deadline,
// the repository's comment list, and who may be assigned or asked to review.
import { and, asc, count, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  activities, attachments, collaborations, comments, issueLabels, issues, notifications, pullReviewComments, teamMembers, teamRepos, teams, users,
  type CommentRow, type IssueRow, type UserRow,
} from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { canRead, canWrite, isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, NotFound, RepoArchived } from '../errors.js';
import type { AccessService } from '../repos/access.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import type { AttachmentService } from './attachments.js';
import { recountLabels, recountMilestones, recountRepoIssues } from './counters.js';
import { canWriteIssue, type IssueService } from './issues.js';
import { PinService } from './pins.js';

type Page = { limit: number; offset: number };

export class IssueThreadService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly issues: IssueService,
    private readonly attachments: AttachmentService,
  ) {}

  /**
   * Gitea's DELETE issue: repository administrators only. The issue goes with its comments, events, labels,
   * assignees, times, reviews, pull request, notifications and feed entries (foreign keys or here); the
   * counters of the repository, milestone and labels are recounted in the same transaction; the attachment
   * files go after it commits.
   */
  async delete(loaded: LoadedRepo, index: number, actor: UserRow): Promise<void> {
    const issue = await this.issues.load(loaded, index);
    if (!isRepoAdmin(loaded.perm) && !actor.isAdmin) throw new Forbidden('must be a repository administrator');
    if (loaded.repo.isArchived) throw new RepoArchived();
    const files = await withTx(this.deps.db, async (tx) => {
      await PinService.lockRepo(tx, issue.repoId);
      const [current] = await tx.select().from(issues).where(eq(issues.id, issue.id)).for('update');
      if (!current) throw new NotFound();
      const labelIds = (await tx.select({ id: issueLabels.labelId }).from(issueLabels).where(eq(issueLabels.issueId, current.id))).map((r) => r.id);
      const gone = await tx.delete(attachments).where(eq(attachments.issueId, current.id)).returning({ uuid: attachments.uuid });
      await tx.delete(pullReviewComments).where(eq(pullReviewComments.issueId, current.id));
      await tx.delete(notifications).where(eq(notifications.issueId, current.id));
      await tx.delete(activities).where(and(eq(activities.repoId, current.repoId), eq(activities.issueId, current.id)));
      await tx.delete(issues).where(eq(issues.id, current.id));
      await PinService.closeGap(tx, current);
      await recountRepoIssues(tx, current.repoId);
      await recountMilestones(tx, [current.milestoneId]);
      await recountLabels(tx, labelIds);
      return gone.map((g) => g.uuid);
    });
    for (const uuid of files) await this.attachments.storage.remove(uuid);
  }

  /** Text comments of every issue or pull request of the repository the caller may read, oldest first. */
  async repoComments(loaded: LoadedRepo, f: { since?: string; before?: string }, page: Page): Promise<{ rows: CommentRow[]; total: number }> {
    const readIssues = canRead(loaded.perm, 'repo.issues');
    const readPulls = canRead(loaded.perm, 'repo.pulls');
    if (!readIssues && !readPulls) throw new NotFound();
    const conds: SQL[] = [eq(comments.repoId, loaded.repo.id), eq(comments.type, 'comment')];
    if (!readIssues || !readPulls) {
      conds.push(inArray(comments.issueId, this.deps.db.select({ id: issues.id }).from(issues).where(and(eq(issues.repoId, loaded.repo.id), eq(issues.isPull, readPulls)))));
    }
    if (f.since) conds.push(gte(comments.updatedAt, new Date(f.since)));
    if (f.before) conds.push(lte(comments.updatedAt, new Date(f.before)));
    const where = and(...conds);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(comments).where(where).orderBy(asc(comments.createdAt), asc(comments.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(comments).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** Issues by id (the issues of a page of comments). */
  async issuesById(ids: number[]): Promise<Map<number, IssueRow>> {
    if (!ids.length) return new Map();
    const rows = await this.deps.db.select().from(issues).where(inArray(issues.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Writers of the unit lock and unlock; each change is recorded as a `lock`/`unlock` event, a repeat changes nothing. */
  async setLocked(loaded: LoadedRepo, index: number, actor: UserRow, locked: boolean, reason = ''): Promise<void> {
    const issue = await this.issues.load(loaded, index);
    if (!canWriteIssue(loaded.perm, issue.isPull)) throw new Forbidden('user should have permission to lock the issue');
    if (loaded.repo.isArchived) throw new RepoArchived();
    await withTx(this.deps.db, async (tx) => {
      const [changed] = await tx.update(issues).set({ isLocked: locked }).where(and(eq(issues.id, issue.id), eq(issues.isLocked, !locked))).returning({ id: issues.id });
      if (!changed) return;
      await tx.insert(comments).values({ issueId: issue.id, repoId: issue.repoId, posterId: actor.id, type: locked ? 'lock' : 'unlock', body: locked ? reason : '' });
    });
  }

  /** POST …/deadline: writers only; the Go zero time or null removes the deadline. */
  async setDeadline(loaded: LoadedRepo, index: number, actor: UserRow, dueDate: string | null | undefined): Promise<IssueRow> {
    const issue = await this.issues.load(loaded, index);
    if (!canWriteIssue(loaded.perm, issue.isPull)) throw new Forbidden('user should have permission to edit the deadline');
    if (loaded.repo.isArchived) throw new RepoArchived();
    const zero = !dueDate || new Date(dueDate).getUTCFullYear() <= 1;
    return this.issues.edit(loaded, issue, actor, zero ? { unsetDueDate: true } : { dueDate: dueDate! });
  }

  /** Accounts with a place in the repository (owner, collaborators, members of its teams), sorted by name. */
  private async members(loaded: LoadedRepo): Promise<UserRow[]> {
    const repoId = loaded.repo.id;
    const ownTeams = this.deps.db.select({ id: teams.id }).from(teams)
      .where(and(eq(teams.orgId, loaded.owner.id), or(eq(teams.includesAllRepositories, true), inArray(teams.id, this.deps.db.select({ id: teamRepos.teamId }).from(teamRepos).where(eq(teamRepos.repoId, repoId))))));
    return this.deps.db.select().from(users).where(and(
      sql`${users.type} <> 'Organization'`,
      or(
        eq(users.id, loaded.owner.id),
        inArray(users.id, this.deps.db.select({ id: collaborations.userId }).from(collaborations).where(eq(collaborations.repoId, repoId))),
        inArray(users.id, this.deps.db.select({ id: teamMembers.userId }).from(teamMembers).where(inArray(teamMembers.teamId, ownTeams))),
      ),
    )).orderBy(asc(users.lowerName));
  }

  /** Who may be assigned: those who can write the code, issues or pull requests (the rule of assignment itself). */
  async assignees(loaded: LoadedRepo): Promise<UserRow[]> {
    const out: UserRow[] = [];
    for (const u of await this.members(loaded)) {
      const perm = await this.access.repoPermissionIn(this.deps.db, loaded.repo, loaded.owner, u);
      if ((['repo.code', 'repo.issues', 'repo.pulls'] as const).some((unit) => canWrite(perm, unit))) out.push(u);
    }
    return out;
  }

  /** Who may be asked to review: those who can read the pull requests, the caller excepted. */
  async reviewers(loaded: LoadedRepo, actor: UserRow | null): Promise<UserRow[]> {
    const out: UserRow[] = [];
    for (const u of await this.members(loaded)) {
      if (u.id === actor?.id) continue;
      const perm = await this.access.repoPermissionIn(this.deps.db, loaded.repo, loaded.owner, u);
      if (canRead(perm, 'repo.pulls')) out.push(u);
    }
    return out;
  }
}
