// Issues (and the issue side of pull requests): numbering, creation, look-up, lists and edits, with
// every counter recounted in the same transaction.
import { and, asc, count, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  comments, contentHistory, issueAssignees, issueLabels, issueMentions, issues, labels, milestones, pullAutoMerges, pullRequests, users,
  type IssueRow, type UserRow,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { recordEvent, recordEvents } from '../events/record.js';
import { inRepo, issueContent } from '../events/scope.js';
import { canRead, canWrite, type RepoPermission } from '../../permissions/repo.js';
import { AccessService, type RepoReach } from '../repos/access.js';
import type { ServiceDeps } from '../context.js';
import { recountLabels, recountMilestones, recountRepoIssues, repoIssuesShift } from './counters.js';
import { endOfDay } from './dueDate.js';
import { BadRequest, Conflict, Forbidden, Invalid, NotFound, PreconditionFailed, RepoArchived } from '../errors.js';
import { detailsFromColumns, issuesWithDetails, prepareIssueDetailQueries, type IssueDetails } from './issueDetails.js';
import { issueTextMatch, keywordOf } from './textMatch.js';
import { nextIssueIndexCte } from './issueIndex.js';
import { dropDuplicateScopes, usableLabelsById, writeIssueLabels } from './labelRows.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { refuseOpenDependencies } from './openDependencies.js';
import { refuseBlocked } from '../users/blocks.js';
import { addCrossReferences } from './crossRefs.js';
import { createIssueAlone, type CreateIssueInput } from './createAlone.js';
import { issuesCreated } from '../../metrics.js';
import { deadlineComment } from './dueDate.js';

/** From this offset on, an issue list counts first and may walk from the other end (see list). */
export const deepOffset = 1_000;

/** How many issues and/or pull requests of a state the repository's counters hold. */
export function countersTotal(repo: LoadedRepo['repo'], withIssues: boolean, withPulls: boolean, state: IssueFilters['state']): number {
  const of = (all: number, closed: number) => (state === 'all' ? all : state === 'closed' ? closed : all - closed);
  return (withIssues ? of(repo.numIssues, repo.numClosedIssues) : 0) + (withPulls ? of(repo.numPulls, repo.numClosedPulls) : 0);
}

export const issueUnit = (isPull: boolean) => (isPull ? ('repo.pulls' as const) : ('repo.issues' as const));
export const canWriteIssue = (perm: RepoPermission, isPull: boolean) => canWrite(perm, issueUnit(isPull));

/**
 * The issues and pull requests of the reached repositories that the caller may read (issues where they
 * read the issues unit, pull requests where they read the pulls unit), as a condition on `issues`.
 */
export function readableIssues(reach: RepoReach): SQL {
  const ids = (isPull: boolean) => [...reach.values()].filter((r) => canRead(r.perm, issueUnit(isPull))).map((r) => r.repo.id);
  const part = (isPull: boolean, repoIds: number[]) => (repoIds.length ? and(eq(issues.isPull, isPull), inArray(issues.repoId, repoIds)) : undefined);
  return or(part(false, ids(false)), part(true, ids(true))) ?? sql`false`;
}

export type { CreateIssueInput };

export interface EditIssueInput {
  title?: string;
  body?: string;
  contentVersion?: number;
  assignees?: string[];
  milestoneId?: number;
  labelIds?: number[];
  state?: string;
  dueDate?: string;
  unsetDueDate?: boolean;
  ref?: string;
}

export interface IssueFilters {
  state?: 'open' | 'closed' | 'all';
  type?: 'issues' | 'pulls';
  labels?: string[];
  milestones?: string[];
  q?: string;
  since?: string;
  before?: string;
  createdBy?: number;
  /** Only issues whose body or comments @mention this user. */
  mentioned?: number;
  assignedTo?: number;
}

export class IssueService {
  private readonly access: AccessService;
  constructor(private readonly deps: ServiceDeps) {
    this.access = new AccessService(deps);
  }

  private prepared: ReturnType<typeof prepareIssueDetailQueries> | undefined;
  private get queries() {
    return (this.prepared ??= prepareIssueDetailQueries(this.deps.db));
  }

  /** Labels, assignees, milestone, poster, assets and pull request of a page of issues, in one query. */
  async details(rows: IssueRow[]): Promise<Map<number, IssueDetails>> {
    const out = new Map<number, IssueDetails>();
    if (rows.length === 0) return out;
    for (const r of await this.queries.byIds.execute({ ids: rows.map((i) => i.id) })) out.set(r.issue.id, detailsFromColumns(r));
    return out;
  }

  /** `load` and `details` in one query: GET of an issue or a pull request. */
  async loadWithDetails(loaded: LoadedRepo, index: number): Promise<{ issue: IssueRow; details: IssueDetails }> {
    const [row] = await this.queries.byIndex.execute({ repo: loaded.repo.id, index });
    if (!row || !canRead(loaded.perm, issueUnit(row.issue.isPull))) throw new NotFound();
    return { issue: row.issue, details: detailsFromColumns(row) };
  }

  async byIndex(repoId: number, index: number): Promise<IssueRow | undefined> {
    const [row] = await this.deps.db.select().from(issues).where(and(eq(issues.repoId, repoId), eq(issues.index, index)));
    return row;
  }

  /** The issue or pull request, if the caller may read its unit; 404 otherwise. */
  async load(loaded: LoadedRepo, index: number): Promise<IssueRow> {
    const issue = await this.byIndex(loaded.repo.id, index);
    if (!issue || !canRead(loaded.perm, issueUnit(issue.isPull))) throw new NotFound();
    return issue;
  }

  /** Users by name for assignment; an unknown name is 422 as in Gitea. */
  async assigneeIds(tx: Db, names: string[]): Promise<number[]> {
    const wanted = [...new Set(names.map((n) => n.trim()).filter(Boolean).map((n) => n.toLowerCase()))];
    if (wanted.length === 0) return [];
    const rows = await tx.select({ id: users.id, name: users.lowerName, type: users.type }).from(users).where(inArray(users.lowerName, wanted));
    const missing = wanted.filter((w) => !rows.some((r) => r.name === w && r.type !== 'Organization'));
    if (missing.length) throw new Invalid(`Assignee does not exist [name: ${missing[0]}]`);
    return rows.map((r) => r.id);
  }

  /** Assignees must exist and be able to write the code, issues or pull requests here (422 otherwise, as Gitea). */
  async assignable(tx: Db, loaded: LoadedRepo, names: string[]): Promise<number[]> {
    const ids = await this.assigneeIds(tx, names);
    if (ids.length === 0) return [];
    for (const user of await tx.select().from(users).where(inArray(users.id, ids))) {
      const perm = await this.access.repoPermissionIn(tx, loaded.repo, loaded.owner, user);
      if (!(['repo.code', 'repo.issues', 'repo.pulls'] as const).some((u) => canWrite(perm, u))) {
        throw new Invalid(`user does not have access to repo [user_id: ${user.id}, repo_name: ${loaded.repo.name}]`);
      }
    }
    return ids;
  }

  /**
   * Label ids of this repository (or its organization) to set on an issue: unknown ids are dropped, and of
   * several labels of one exclusive scope the last one stays, as Gitea does.
   */
  async knownLabels(tx: Db, loaded: LoadedRepo, ids: number[]): Promise<number[]> {
    return dropDuplicateScopes(await usableLabelsById(tx, loaded, ids)).map((l) => l.id);
  }

  async milestoneOf(tx: Db, repoId: number, id: number): Promise<number> {
    const [m] = await tx.select({ id: milestones.id }).from(milestones).where(and(eq(milestones.id, id), eq(milestones.repoId, repoId)));
    if (!m) throw new Invalid(`milestone does not exist [id: ${id}]`);
    return m.id;
  }

  /**
   * Creates an issue (or, with `pull` set, the issue of a pull request inside the caller's transaction).
   * Assignees, labels and milestone are set only by writers; others' are ignored, as in Gitea. 403 when
   * the repository's owner blocked the caller.
   */
  async create(loaded: LoadedRepo, actor: UserRow, input: CreateIssueInput, pull?: { tx: Db }): Promise<IssueRow> {
    const isPull = !!pull;
    if (loaded.repo.isArchived) throw new RepoArchived();
    if (!canRead(loaded.perm, issueUnit(isPull))) throw new NotFound();
    if (!input.title.trim()) throw new Invalid('[title]: Required');
    const writer = canWriteIssue(loaded.perm, isPull);
    // A plain issue where no fan-out has work to do: one statement, no transaction (createAlone.ts).
    if (!pull) {
      const alone = await createIssueAlone(this.deps, loaded, actor, input, writer);
      if (alone) {
        issuesCreated.inc({ way: 'statement' });
        return alone;
      }
    }
    const run = async (tx: Db) => {
      // Someone the repository's owner blocked opens nothing there (403 `user is blocked`).
      await refuseBlocked(tx, actor.id, [loaded.owner.id]);
      const assignees = writer ? await this.assignable(tx, loaded, input.assignees ?? []) : [];
      // As in Gitea, no one is assigned by someone they blocked (403 `user is blocked`).
      await refuseBlocked(tx, actor.id, assignees);
      const labelIds = writer ? await this.knownLabels(tx, loaded, input.labelIds ?? []) : [];
      const milestoneId = writer && input.milestoneId ? await this.milestoneOf(tx, loaded.repo.id, input.milestoneId) : null;
      const now = new Date();
      const closed = !!input.closed;
      const next = nextIssueIndexCte(tx, loaded.repo.id);
      const [row] = await tx
        .with(next)
        .insert(issues)
        .values({
          repoId: loaded.repo.id,
          index: sql`(select last_index from ${next})`,
          posterId: actor.id,
          title: input.title,
          body: input.body ?? '',
          isPull,
          isClosed: closed,
          closedAt: closed ? now : null,
          milestoneId,
          ref: input.ref ?? '',
          // Stored as given on creation (Gitea; only edits keep the date alone), and only by writers for
          // issues; a pull request's poster may set its own.
          dueDate: input.dueDate && (writer || isPull) ? new Date(input.dueDate) : null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (assignees.length) await tx.insert(issueAssignees).values(assignees.map((userId) => ({ issueId: row!.id, userId })));
      // Gitea's timeline of a new issue: its milestone, its labels, then each assignee.
      if (milestoneId !== null) {
        await tx.insert(comments).values({ issueId: row!.id, repoId: row!.repoId, posterId: actor.id, type: 'milestone', milestoneId, createdAt: now, updatedAt: now });
      }
      if (labelIds.length) await writeIssueLabels(tx, row!, actor.id, labelIds);
      if (assignees.length) {
        await tx.insert(comments).values(assignees.map((assigneeId) => ({ issueId: row!.id, repoId: row!.repoId, posterId: actor.id, type: 'assignees' as const, assigneeId, createdAt: now, updatedAt: now })));
      }
      await addCrossReferences(this.deps, tx, actor, { issue: row!, repo: loaded.repo, owner: loaded.owner }, { plain: row!.title, markdown: row!.body }, false);
      const shift = repoIssuesShift(tx, loaded.repo.id, { isPull, opened: 1, closed: closed ? 1 : 0 });
      // The repository's counters go with the event's statement (one round trip fewer while the number's
      // counter row is locked), unless milestones or labels are counted too: their rows are locked
      // after the repository's, in that order, as every change takes them.
      const shiftWithEvent = !isPull && milestoneId === null && labelIds.length === 0;
      if (!shiftWithEvent) await shift;
      await recountMilestones(tx, [milestoneId]);
      await recountLabels(tx, labelIds);
      // A pull request's own event (pull_request opened) is recorded by the pull-request service.
      if (!isPull) {
        await recordEvents(this.deps, tx, [{
          type: 'issues', action: 'opened', issueId: row!.id, ...inRepo(loaded.repo, actor.id),
          activity: { opType: 'create_issue', issueId: row!.id, content: issueContent(row!.index, input.title) },
        }], shiftWithEvent ? shift : undefined);
      }
      return row!;
    };
    if (pull) return run(pull.tx);
    const row = await withTx(this.deps.db, run);
    issuesCreated.inc({ way: 'transaction' });
    return row;
  }

  /**
   * A page of the repository's issues, each with its details (read in the page's one query), and the
   * total: from the repository's counters when only state and kind filter the list (Gitea's counters,
   * kept in every change's transaction), else counted.
   */
  async list(loaded: LoadedRepo, f: IssueFilters, page: { limit: number; offset: number }): Promise<{ rows: Array<{ issue: IssueRow; details: IssueDetails }>; total: number }> {
    const { db } = this.deps;
    const conds: Array<SQL | undefined> = [eq(issues.repoId, loaded.repo.id)];
    const readIssues = canRead(loaded.perm, 'repo.issues');
    const readPulls = canRead(loaded.perm, 'repo.pulls');
    const wantPulls = f.type === 'pulls' ? true : f.type === 'issues' ? false : undefined;
    // Asking for a kind the caller cannot read, or being able to read neither, is 404 as in Gitea.
    if ((!readIssues && !readPulls) || (wantPulls === true && !readPulls) || (wantPulls === false && !readIssues)) throw new NotFound();
    if (wantPulls === true || !readIssues) conds.push(eq(issues.isPull, true));
    if (wantPulls === false || !readPulls) conds.push(eq(issues.isPull, false));
    if (f.state !== 'all') conds.push(eq(issues.isClosed, f.state === 'closed'));
    const q = keywordOf(f.q);
    if (q) conds.push(issueTextMatch(q, loaded.repo.id));
    if (f.since) conds.push(gte(issues.updatedAt, new Date(f.since)));
    if (f.before) conds.push(lte(issues.updatedAt, new Date(f.before)));
    if (f.createdBy) conds.push(eq(issues.posterId, f.createdBy));
    if (f.mentioned) {
      conds.push(sql`exists (select 1 from ${issueMentions} where ${issueMentions.issueId} = ${issues.id} and ${issueMentions.userId} = ${f.mentioned})`);
    }
    if (f.assignedTo) {
      conds.push(sql`exists (select 1 from ${issueAssignees} where ${issueAssignees.issueId} = ${issues.id} and ${issueAssignees.userId} = ${f.assignedTo})`);
    }
    if (f.labels?.length) {
      // Every named label (Gitea's rule), by name, case-insensitive; unknown names are dropped, and when
      // none is known nothing matches.
      const wanted = [...new Set(f.labels.map((l) => l.toLowerCase()))];
      const lower = sql<string>`lower(${labels.name})`;
      const known = (await db.selectDistinct({ name: lower }).from(labels)
        .where(and(or(eq(labels.repoId, loaded.repo.id), eq(labels.orgId, loaded.owner.id)), inArray(lower, wanted)))).map((r) => r.name);
      conds.push(known.length === 0 ? sql`false` : sql`(select count(distinct lower(${labels.name})) from ${issueLabels}
        join ${labels} on ${labels.id} = ${issueLabels.labelId}
        where ${issueLabels.issueId} = ${issues.id} and lower(${labels.name}) in ${known}) = ${known.length}`);
    }
    if (f.milestones?.length) {
      const ids = f.milestones.filter((m) => /^\d+$/.test(m)).map(Number);
      // An id no row can have: beyond a safe integer it is not even the number that was sent.
      const tooBig = f.milestones.find((m) => /^\d+$/.test(m) && !Number.isSafeInteger(Number(m)));
      if (tooBig !== undefined) throw new Invalid(`[milestones]: ${tooBig} is out of range for an id`);
      const names = f.milestones.map((m) => m.toLowerCase());
      conds.push(sql`${issues.milestoneId} in (select ${milestones.id} from ${milestones} where ${milestones.repoId} = ${loaded.repo.id}
        and (lower(${milestones.name}) in ${names} ${ids.length ? sql`or ${milestones.id} in ${ids}` : sql``}))`);
    }
    const where = and(...conds);
    const newestFirst = [desc(issues.createdAt), desc(issues.id)];
    // The page's ids first: skipping OFFSET rows then walks the index alone (no row fetched for each
    // skipped one). The rows of those ids are read after, with their details, in the same statement.
    const pageOf = async (ids: ReturnType<typeof pageIdsOf>) =>
      (await issuesWithDetails(db, inArray(issues.id, ids)).orderBy(...newestFirst)).map((r) => ({ issue: r.issue, details: detailsFromColumns(r) }));
    const pageIdsOf = (order: SQL[], limit: number, offset: number) =>
      db.select({ id: issues.id }).from(issues).where(where).orderBy(...order).limit(limit).offset(offset);
    const unfiltered = !q && !f.since && !f.before && !f.createdBy && !f.mentioned && !f.assignedTo && !f.labels?.length && !f.milestones?.length;
    const fromCounters = unfiltered ? countersTotal(loaded.repo, wantPulls !== true && readIssues, wantPulls !== false && readPulls, f.state) : undefined;
    const counted = async () => fromCounters ?? (await db.select({ n: count() }).from(issues).where(where))[0]?.n ?? 0;
    if (page.offset < deepOffset) {
      const [rows, total] = await Promise.all([pageOf(pageIdsOf(newestFirst, page.limit, page.offset)), counted()]);
      return { rows, total };
    }
    // A deep page: counted first, and past the middle it is walked to from the oldest end, so the last
    // page of 100,000 issues skips as few entries as the first (the order is total: ties go by id).
    const total = await counted();
    if (page.offset >= total) return { rows: [], total };
    if (page.offset <= total / 2) return { rows: await pageOf(pageIdsOf(newestFirst, page.limit, page.offset)), total };
    const end = total - page.offset; // the page's positions counted from the oldest: [start, end)
    const start = Math.max(0, end - page.limit);
    return { rows: await pageOf(pageIdsOf([asc(issues.createdAt), asc(issues.id)], end - start, start)), total };
  }

  /**
   * Shared by PATCH issue and PATCH pull: poster or writer; writers alone change assignees,
   * milestone and labels (others' changes are ignored, as in Gitea); a stale content_version is 409.
   * Also how a pushed commit or a merged pull request closes or reopens an issue (closeByReference.ts):
   * `commitSha` is then the commit the close or reopen entry names (Gitea's ChangeStatus with a commit).
   */
  async edit(loaded: LoadedRepo, issue: IssueRow, actor: UserRow, input: EditIssueInput, opts: { merged?: boolean; tx?: Db; commitSha?: string } = {}): Promise<IssueRow> {
    const writer = canWriteIssue(loaded.perm, issue.isPull);
    if (actor.id !== issue.posterId && !writer) throw new Forbidden('user should be the poster or a writer');
    // Gitea lets a pull request be edited in an archived repository (no archive check on that route).
    if (!issue.isPull && loaded.repo.isArchived) throw new RepoArchived();
    if (input.state !== undefined) {
      if (opts.merged) throw new PreconditionFailed('cannot change state of this pull request, it was already merged');
      if (input.state !== 'open' && input.state !== 'closed') throw new PreconditionFailed('unknown state');
    }
    // An issue's deadline is the writers' (Gitea); a pull request's poster may set its own.
    const setsDueDate = (writer || issue.isPull) && (input.unsetDueDate !== undefined || input.dueDate !== undefined);
    if (setsDueDate && !issue.isPull && !input.unsetDueDate && input.dueDate === undefined) throw new BadRequest('The due_date cannot be empty');
    const run = async (tx: Db) => {
      const [current] = await tx.select().from(issues).where(eq(issues.id, issue.id)).for('update');
      if (!current) throw new NotFound();
      if (input.contentVersion !== undefined && input.contentVersion !== current.contentVersion) {
        throw new Conflict(`the content was changed meanwhile (content_version is ${current.contentVersion}, not ${input.contentVersion})`);
      }
      const now = new Date();
      const set: Partial<IssueRow> = { updatedAt: now };
      if (input.title?.trim() && input.title !== current.title) {
        set.title = input.title;
        await tx.insert(comments).values({ issueId: current.id, repoId: current.repoId, posterId: actor.id, type: 'change_title', oldValue: current.title, newValue: input.title });
      }
      if (input.body !== undefined && input.body !== current.body) {
        const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(contentHistory)
          .where(and(eq(contentHistory.issueId, current.id), eq(contentHistory.commentId, 0)));
        if (n === 0) {
          await tx.insert(contentHistory).values({ issueId: current.id, editorId: current.posterId, content: current.body, isFirstCreated: true, createdAt: current.createdAt });
        }
        await tx.insert(contentHistory).values({ issueId: current.id, editorId: actor.id, content: input.body, createdAt: now });
        set.body = input.body;
        set.contentVersion = current.contentVersion + 1;
      }
      if (input.ref !== undefined && input.ref !== current.ref) {
        set.ref = input.ref;
        await tx.insert(comments).values({
          issueId: current.id, repoId: current.repoId, posterId: actor.id, type: 'change_issue_ref',
          // As Gitea: a branch's name without refs/heads/.
          oldValue: current.ref.replace(/^refs\/heads\//, ''), newValue: input.ref.replace(/^refs\/heads\//, ''),
        });
      }
      if (setsDueDate && (input.unsetDueDate || input.dueDate !== undefined)) {
        set.dueDate = !input.unsetDueDate && input.dueDate ? endOfDay(input.dueDate) : null;
        const event = deadlineComment(current.dueDate, set.dueDate);
        if (event) await tx.insert(comments).values({ issueId: current.id, repoId: current.repoId, posterId: actor.id, ...event });
      }
      const oldMilestone = current.milestoneId;
      if (writer && input.milestoneId !== undefined && input.milestoneId !== (current.milestoneId ?? 0)) {
        set.milestoneId = input.milestoneId ? await this.milestoneOf(tx, current.repoId, input.milestoneId) : null;
        if (set.milestoneId !== oldMilestone) {
          await tx.insert(comments).values({
            issueId: current.id, repoId: current.repoId, posterId: actor.id, type: 'milestone', oldMilestoneId: oldMilestone, milestoneId: set.milestoneId,
          });
        }
      }
      let labelChange: number[] = [];
      let labelsChanged: { now: number } | undefined;
      if (writer && input.labelIds !== undefined) {
        const next = await this.knownLabels(tx, loaded, input.labelIds);
        const { before, added, removed } = await writeIssueLabels(tx, current, actor.id, next);
        if (added.length || removed.length) labelsChanged = { now: next.length };
        labelChange = [...before, ...added];
      }
      const assigneeChanges: Array<{ id: number; added: boolean }> = [];
      if (writer && input.assignees !== undefined) {
        const ids = await this.assignable(tx, loaded, input.assignees);
        const before = (await tx.select({ id: issueAssignees.userId }).from(issueAssignees).where(eq(issueAssignees.issueId, current.id))).map((r) => r.id);
        for (const id of new Set(ids)) if (!before.includes(id)) assigneeChanges.push({ id, added: true });
        for (const id of before) if (!ids.includes(id)) assigneeChanges.push({ id, added: false });
        await refuseBlocked(tx, actor.id, assigneeChanges.filter((c) => c.added).map((c) => c.id));
        await tx.delete(issueAssignees).where(eq(issueAssignees.issueId, current.id));
        if (ids.length) await tx.insert(issueAssignees).values([...new Set(ids)].map((userId) => ({ issueId: current.id, userId })));
        if (assigneeChanges.length) {
          await tx.insert(comments).values(assigneeChanges.map((c) => ({
            issueId: current.id, repoId: current.repoId, posterId: actor.id, type: 'assignees' as const, assigneeId: c.id, removedAssignee: !c.added,
          })));
        }
      }
      let stateChanged = false;
      if (input.state !== undefined && (input.state === 'closed') !== current.isClosed) {
        stateChanged = true;
        set.isClosed = input.state === 'closed';
        if (set.isClosed) await refuseOpenDependencies(tx, current.id);
        set.closedAt = set.isClosed ? now : null;
        await tx.insert(comments).values({ issueId: current.id, repoId: current.repoId, posterId: actor.id, type: set.isClosed ? 'close' : 'reopen', commitSha: opts.commitSha ?? '' });
        // A closed pull request's scheduled merge goes with the close (Gitea removes it), so GET/DELETE .../merge no longer see it.
        if (set.isClosed && current.isPull) {
          await tx.delete(pullAutoMerges).where(inArray(pullAutoMerges.pullId, tx.select({ id: pullRequests.id }).from(pullRequests).where(eq(pullRequests.issueId, current.id))));
        }
      }
      const [row] = await tx.update(issues).set(set).where(eq(issues.id, current.id)).returning();
      // A new title or body may mention other issues, or no longer mention some (Gitea's AddCrossReferences on edit).
      if (row!.title !== current.title || row!.body !== current.body) {
        await addCrossReferences(this.deps, tx, actor, { issue: row!, repo: loaded.repo, owner: loaded.owner }, { plain: row!.title, markdown: row!.body }, true);
      }
      if (stateChanged) {
        await recountRepoIssues(tx, current.repoId);
        const labelIds = (await tx.select({ id: issueLabels.labelId }).from(issueLabels).where(eq(issueLabels.issueId, current.id))).map((r) => r.id);
        labelChange.push(...labelIds);
      }
      await recountMilestones(tx, [oldMilestone, row!.milestoneId]);
      await recountLabels(tx, labelChange);
      await this.recordEdit(tx, loaded, current, row!, actor, { stateChanged, labelsChanged, assigneeChanges, oldMilestone });
      return row!;
    };
    return opts.tx ? run(opts.tx) : withTx(this.deps.db, run);
  }

  /** The events of one edit, in Gitea's order: content, state, labels, milestone, assignees. */
  private async recordEdit(
    tx: Db, loaded: LoadedRepo, before: IssueRow, after: IssueRow, actor: UserRow,
    c: { stateChanged: boolean; labelsChanged?: { now: number }; assigneeChanges: Array<{ id: number; added: boolean }>; oldMilestone: number | null },
  ): Promise<void> {
    const pull = after.isPull;
    const base = { issueId: after.id, ...inRepo(loaded.repo, actor.id) };
    const changes: { title?: { from: string }; body?: { from: string } } = {};
    if (after.title !== before.title) changes.title = { from: before.title };
    if (after.body !== before.body) changes.body = { from: before.body };
    if (changes.title || changes.body) await recordEvent(this.deps, tx, { type: pull ? 'pull_request' : 'issues', action: 'edited', changes, ...base });
    if (c.stateChanged) {
      const closed = after.isClosed;
      const opType = pull ? (closed ? 'close_pull_request' : 'reopen_pull_request') : closed ? 'close_issue' : 'reopen_issue';
      await recordEvent(this.deps, tx, {
        type: pull ? 'pull_request' : 'issues', action: closed ? 'closed' : 'reopened', ...base,
        activity: { opType, issueId: after.id, content: issueContent(after.index, after.title) },
      });
    }
    if (c.labelsChanged) {
      await recordEvent(this.deps, tx, { type: pull ? 'pull_request_label' : 'issue_label', action: c.labelsChanged.now ? 'label_updated' : 'label_cleared', ...base });
    }
    if ((after.milestoneId ?? null) !== (c.oldMilestone ?? null)) {
      const milestoneId = after.milestoneId ?? c.oldMilestone!;
      await recordEvent(this.deps, tx, { type: pull ? 'pull_request_milestone' : 'issue_milestone', action: after.milestoneId ? 'milestoned' : 'demilestoned', milestoneId, ...base });
    }
    for (const a of c.assigneeChanges) {
      await recordEvent(this.deps, tx, { type: pull ? 'pull_request_assign' : 'issue_assign', action: a.added ? 'assigned' : 'unassigned', assigneeId: a.id, ...base });
    }
  }
}
