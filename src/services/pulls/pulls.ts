// Pull requests: creation, look-up and lists. The issue side (number, title, labels, ...) lives in the
// issues table; the branch side, with the diff statistics computed from git when the pull request or its
// branches change, in pull_requests. The head is a branch of the base repository or of a fork of it
// (forkPulls.ts); either way the base repository holds the head commit as refs/pull/N/head, and reads
// the head from there for a fork. Git runs before any transaction opens (PGlite has one connection).
import { and, asc, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import {
  issueAssignees, issueLabels, issues, milestones, pullRequests, repositories, users,
  type PullRequestRow, type RepoRow, type UserRow,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { recordEvent } from '../events/record.js';
import { inRepo, issueContent } from '../events/scope.js';
import { compareCommits } from '../../git/compare.js';
import { repoDir } from '../../git/paths.js';
import { fetchLocal } from '../../git/fetch.js';
import { branchTipsOf, refTarget, setRef } from '../../git/refs.js';
import { canRead, canWrite } from '../../permissions/repo.js';
import type { AccessService } from '../repos/access.js';
import { refuseBlocked } from '../users/blocks.js';
import type { ServiceDeps } from '../context.js';
import { recountLabels, recountMilestones } from '../issues/counters.js';
import { BadRequest, Conflict, Invalid, NotFound, RepoArchived } from '../errors.js';
import { detailsFromColumns, issuesWithDetails, loadIssueDetails, type IssueDetails } from '../issues/issueDetails.js';
import { countersTotal, type IssueService } from '../issues/issues.js';
import { isValidRefName } from '../names.js';
import { commitState } from '../git/statuses.js';
import { editPull, isWorkInProgress, type EditPullInput } from './pullEdit.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { resolveHead } from './forkPulls.js';
import { resyncRepo } from './pullSync.js';
import { fromOtherRepo, headRefOf, statsOf, type ChangedPull, type PullEnds, type PullHost, type PullView } from './pullTypes.js';

export { isWorkInProgress, type EditPullInput };
export { fromOtherRepo, headRefOf, statsOf, type ChangedPull, type PullEnds, type PullView } from './pullTypes.js';

export interface CreatePullInput {
  head: string;
  base: string;
  title: string;
  body?: string;
  assignees?: string[];
  milestoneId?: number;
  labelIds?: number[];
  dueDate?: string;
}

export interface PullFilters {
  state?: 'open' | 'closed' | 'all';
  sort?: 'oldest' | 'recentupdate' | 'leastupdate' | 'mostcomment' | 'leastcomment' | 'priority';
  milestone?: number;
  labels?: number[];
  poster?: string;
}

const orders: Record<string, SQL[]> = {
  oldest: [asc(issues.createdAt), asc(issues.id)],
  recentupdate: [desc(issues.updatedAt), desc(issues.id)],
  leastupdate: [asc(issues.updatedAt), asc(issues.id)],
  mostcomment: [desc(issues.numComments), desc(issues.id)],
  leastcomment: [asc(issues.numComments), asc(issues.id)],
};
const newestFirst = [desc(issues.createdAt), desc(issues.id)];

export class PullService implements PullHost {
  constructor(
    readonly deps: ServiceDeps,
    readonly issues: IssueService,
    readonly access: AccessService,
  ) {}

  dir(loaded: Pick<LoadedRepo, 'repo' | 'owner'>): string {
    return repoDir(this.deps.config.dataDir, loaded.owner.name, loaded.repo.name);
  }

  /** The combined state of the head tip's commit statuses ('' when it has none, or the head is gone). */
  async headState(loaded: Pick<LoadedRepo, 'repo' | 'owner'>, view: PullView): Promise<string> {
    const tip = (await this.ends(loaded, view)).headTip;
    return tip ? commitState(this.deps.db, loaded.repo.id, tip) : '';
  }

  /** The tips of the base branch (`base`: another one, for a change of base) and of the head, in the base repository. */
  async ends(loaded: Pick<LoadedRepo, 'repo' | 'owner'>, view: PullView, base = view.pull.baseBranch): Promise<PullEnds> {
    const { pull, issue } = view;
    if (!fromOtherRepo(pull)) {
      const tips = await this.tips(loaded, [base, pull.headBranch]);
      return { baseTip: tips.get(base), headTip: tips.get(pull.headBranch) };
    }
    const [tips, headTip] = await Promise.all([this.tips(loaded, [base]), refTarget(this.dir(loaded), headRefOf(pull, issue.index))]);
    return { baseTip: tips.get(base), headTip };
  }

  /** Pull requests need both the code and the pull request unit (Gitea's mustAllowPulls + reqRepoReader(code)). */
  requireRead(loaded: LoadedRepo): void {
    if (!canRead(loaded.perm, 'repo.code') || !canRead(loaded.perm, 'repo.pulls')) throw new NotFound();
  }

  /**
   * The pull requests with `baseSha` as Gitea shows it: the base branch's head now ('' once the branch is
   * gone), merged or not. The sync keeps open pull requests' stored one there; closed and merged ones, no
   * longer synced, are read here from the refs, once for the page.
   */
  async withCurrentBase<V extends PullView>(loaded: Pick<LoadedRepo, 'repo' | 'owner'>, views: V[]): Promise<V[]> {
    const settled = (v: PullView) => v.pull.merged || v.issue.isClosed;
    if (!views.some(settled)) return views;
    const tips = await this.tips(loaded, [...new Set(views.filter(settled).map((v) => v.pull.baseBranch))]);
    return views.map((v) => (settled(v) ? { ...v, pull: { ...v.pull, baseSha: tips.get(v.pull.baseBranch) ?? '' } } : v));
  }

  /** Branch tips in one git call; names that cannot be branches are simply absent. */
  tips(loaded: Pick<LoadedRepo, 'repo' | 'owner'>, names: string[]): Promise<Map<string, string>> {
    return branchTipsOf(this.dir(loaded), names.filter(isValidRefName));
  }

  /** refs/pull/<index>/head follows the head branch, so the pull request can be fetched by git (and by runners). */
  async keepHeadRef(dir: string, index: number, headTip: string): Promise<void> {
    await setRef(dir, `refs/pull/${index}/head`, headTip).catch((err: Error) => this.deps.log.warn({ err: err.message, dir, index }, 'could not update refs/pull/N/head'));
  }

  /** The statistics to store when a tip moved (or the base changed); undefined when they stand or a branch is gone. */
  async resync(loaded: LoadedRepo, pull: PullRequestRow, { baseTip, headTip }: PullEnds, base = pull.baseBranch) {
    if (pull.merged || !baseTip || !headTip) return undefined;
    if (base === pull.baseBranch && baseTip === pull.baseSha && headTip === pull.headSha) return undefined;
    return statsOf(baseTip, headTip, await compareCommits(this.dir(loaded), baseTip, headTip));
  }

  /** After a repository's branches changed: its pull requests' statistics, and those whose head it holds (pullSync.ts). */
  resyncRepo(repoId: number, dir: string, actorId?: number): Promise<void> {
    return resyncRepo(this, repoId, dir, actorId);
  }

  /** 409 when another open, unmerged pull request goes from `head` to `base`. */
  async requireNoOpenPull(tx: Db, repoId: number, headRepoId: number, head: string, base: string, except?: number): Promise<void> {
    const [dup] = await tx
      .select({ id: pullRequests.id, issueId: pullRequests.issueId })
      .from(pullRequests)
      .innerJoin(issues, eq(issues.id, pullRequests.issueId))
      .where(and(
        eq(pullRequests.repoId, repoId), eq(pullRequests.headRepoId, headRepoId), eq(pullRequests.headBranch, head), eq(pullRequests.baseBranch, base),
        eq(pullRequests.merged, false), eq(issues.isClosed, false), except ? ne(pullRequests.id, except) : undefined,
      ))
      .limit(1);
    if (dup) {
      throw new Conflict(`pull request already exists for these targets [id: ${dup.id}, issue_id: ${dup.issueId}, head_repo_id: ${headRepoId}, ` +
        `base_repo_id: ${repoId}, head_branch: ${head}, base_branch: ${base}]`);
    }
  }

  async create(loaded: LoadedRepo, actor: UserRow, input: CreatePullInput): Promise<ChangedPull> {
    const { db } = this.deps;
    const { repo } = loaded;
    this.requireRead(loaded);
    if (repo.isArchived) throw new RepoArchived();
    if (!input.title.trim()) throw new Invalid('[title]: Required');
    const { side, branch: head } = await resolveHead(this, loaded, actor, input.head);
    const headRepoId = side?.repo.id ?? repo.id;
    const base = input.base;
    if (head === base && !side) throw new Invalid('Invalid PullRequest: There are no changes between the head and the base');
    const tips = await this.tips(loaded, side ? [base] : [base, head]);
    const baseTip = tips.get(base);
    const headTip = side ? (await this.tips(side, [head])).get(head) : tips.get(head);
    if (!baseTip) throw new NotFound(`base branch does not exist [name: ${base}]`);
    if (!headTip) throw new NotFound(`head branch does not exist [name: ${head}]`);
    // The head's commits come into the base repository (kept by refs/pull/N/head once it exists).
    if (side) await fetchLocal(this.dir(loaded), this.dir(side), [headTip]);
    const cmp = await compareCommits(this.dir(loaded), baseTip, headTip);
    if (!cmp.mergeBase) throw new Invalid(`${head} and ${base} have no common history`);
    if (cmp.mergeBase === headTip) throw new Invalid(`There are no commits between ${base} and ${head}`);

    // As Gitea, the poster sets labels, milestone and assignees even without write access.
    const milestoneId = input.milestoneId ? await this.milestoneIn(repo.id, input.milestoneId) : null;
    const assignees = await this.assignable(loaded, input.assignees ?? []);
    const labelIds = [...new Set(await this.issues.knownLabels(db, loaded, input.labelIds ?? []))];

    const created = await withTx(db, async (tx) => {
      // Creating the issue bumps the counter row, which stays locked until commit: the check below
      // therefore sees every pull request created before this one.
      let issue = await this.issues.create(loaded, actor, { title: input.title, body: input.body, dueDate: input.dueDate }, { tx });
      await this.requireNoOpenPull(tx, repo.id, headRepoId, head, base);
      if (milestoneId) issue = (await tx.update(issues).set({ milestoneId }).where(eq(issues.id, issue.id)).returning())[0]!;
      await refuseBlocked(tx, actor.id, assignees);
      if (assignees.length) await tx.insert(issueAssignees).values(assignees.map((userId) => ({ issueId: issue.id, userId })));
      if (labelIds.length) await tx.insert(issueLabels).values(labelIds.map((labelId) => ({ issueId: issue.id, labelId })));
      const [pull] = await tx
        .insert(pullRequests)
        .values({
          issueId: issue.id,
          repoId: repo.id,
          headRepoId,
          headBranch: head,
          baseBranch: base,
          ...statsOf(baseTip, headTip, cmp),
          allowMaintainerEdit: repo.defaultAllowMaintainerEdit,
          isDraft: isWorkInProgress(input.title),
        })
        .returning();
      await recountMilestones(tx, [milestoneId]);
      await recountLabels(tx, labelIds);
      await recordEvent(this.deps, tx, {
        type: 'pull_request', action: 'opened', issueId: issue.id, ...inRepo(repo, actor.id),
        activity: { opType: 'create_pull_request', issueId: issue.id, content: issueContent(issue.index, issue.title) },
      });
      return { issue, pull: pull!, repo: await this.repoRow(tx, repo.id) };
    });
    await this.keepHeadRef(this.dir(loaded), created.issue.index, headTip);
    return created;
  }

  /**
   * A page of pull requests with their issues' details (read in the page's one statement) and the total:
   * from the repository's counters when only the state filters the list, else counted.
   */
  async list(loaded: LoadedRepo, f: PullFilters, page: { limit: number; offset: number }): Promise<{ rows: PullView[]; details: Map<number, IssueDetails>; total: number }> {
    const { db } = this.deps;
    this.requireRead(loaded);
    const conds: Array<SQL | undefined> = [eq(issues.repoId, loaded.repo.id), eq(issues.isPull, true)];
    if (f.state !== 'all') conds.push(eq(issues.isClosed, f.state === 'closed'));
    if (f.milestone) conds.push(eq(issues.milestoneId, f.milestone));
    if (f.labels?.length) {
      conds.push(sql`exists (select 1 from ${issueLabels} where ${issueLabels.issueId} = ${issues.id} and ${inArray(issueLabels.labelId, f.labels)})`);
    }
    if (f.poster) {
      const [u] = await db.select({ id: users.id }).from(users).where(eq(users.lowerName, f.poster.toLowerCase()));
      if (!u) throw new BadRequest(`user does not exist [name: ${f.poster}]`);
      conds.push(eq(issues.posterId, u.id));
    }
    const where = and(...conds);
    const order = orders[f.sort ?? ''] ?? newestFirst;
    const fromCounters = !f.milestone && !f.labels?.length && !f.poster ? countersTotal(loaded.repo, false, true, f.state) : undefined;
    // The page's ids first (the index alone walks past OFFSET rows), then those rows with their details.
    const ids = db.select({ id: issues.id }).from(issues).innerJoin(pullRequests, eq(pullRequests.issueId, issues.id))
      .where(where).orderBy(...order).limit(page.limit).offset(page.offset);
    const [found, total] = await Promise.all([
      issuesWithDetails(db, inArray(issues.id, ids)).orderBy(...order),
      fromCounters ?? db.select({ n: count() }).from(issues).where(where).then(([r]) => r?.n ?? 0),
    ]);
    const rows: PullView[] = [];
    const details = new Map<number, IssueDetails>();
    for (const r of found) {
      const d = detailsFromColumns(r);
      if (!d.pull) continue;
      rows.push({ issue: r.issue, pull: d.pull });
      details.set(r.issue.id, d);
    }
    return { rows, details, total };
  }

  /** The pull request numbered `index`, without touching git; 404 for an issue's number. */
  async load(loaded: LoadedRepo, index: number): Promise<PullView> {
    this.requireRead(loaded);
    const [row] = await this.deps.db
      .select({ issue: issues, pull: pullRequests })
      .from(issues)
      .innerJoin(pullRequests, eq(pullRequests.issueId, issues.id))
      .where(and(eq(issues.repoId, loaded.repo.id), eq(issues.index, index), eq(issues.isPull, true)));
    if (!row) throw new NotFound();
    return row;
  }

  /** GET …/commits/{sha}/pull: the pull request whose merge made this commit (Gitea matches the merge commit only). */
  async byMergeCommit(loaded: LoadedRepo, sha: string): Promise<PullView> {
    this.requireRead(loaded);
    const [row] = await this.deps.db
      .select({ issue: issues, pull: pullRequests })
      .from(issues)
      .innerJoin(pullRequests, eq(pullRequests.issueId, issues.id))
      .where(and(eq(issues.repoId, loaded.repo.id), eq(pullRequests.mergeCommitSha, sha.toLowerCase())));
    if (!row) throw new NotFound();
    return row;
  }

  /** GET .../pulls/{base}/{head}: the latest pull request from `head` (or `owner:head`) to `base`, open or not. */
  async byBranches(loaded: LoadedRepo, base: string, head: string): Promise<PullView> {
    this.requireRead(loaded);
    const { side, branch } = await resolveHead(this, loaded, null, head, { lookUp: true });
    const [row] = await this.deps.db
      .select({ index: issues.index })
      .from(pullRequests)
      .innerJoin(issues, eq(issues.id, pullRequests.issueId))
      .where(and(
        eq(pullRequests.repoId, loaded.repo.id), eq(pullRequests.headRepoId, side?.repo.id ?? loaded.repo.id),
        eq(pullRequests.baseBranch, base), eq(pullRequests.headBranch, branch),
      ))
      .orderBy(desc(pullRequests.id))
      .limit(1);
    if (!row) throw new NotFound();
    return this.get(loaded, row.index);
  }

  /** The pull request, its stored statistics brought up to date first if a branch moved (one git call when none did). */
  async get(loaded: LoadedRepo, index: number): Promise<PullView> {
    const view = await this.load(loaded, index);
    if (view.pull.merged) return view;
    const stats = await this.resync(loaded, view.pull, await this.ends(loaded, view));
    if (!stats) return view;
    if (stats.headSha !== view.pull.headSha && !fromOtherRepo(view.pull)) await this.keepHeadRef(this.dir(loaded), index, stats.headSha);
    // Only while unmerged: a merge recorded meanwhile keeps the tips it merged (and is read again, whole).
    const [pull] = await this.deps.db.update(pullRequests).set(stats)
      .where(and(eq(pullRequests.id, view.pull.id), eq(pullRequests.merged, false)))
      .returning();
    return pull ? { issue: view.issue, pull } : this.load(loaded, index);
  }

  edit(loaded: LoadedRepo, index: number, actor: UserRow, input: EditPullInput): Promise<ChangedPull> {
    return editPull(this, loaded, index, actor, input);
  }

  /** Issue details of a page of pull requests, and who merged them, in a fixed number of queries. */
  /** The issues' details (unless already read, `known`) and the mergers of these pull requests. */
  async details(views: PullView[], known?: Map<number, IssueDetails>) {
    const [details, mergers] = await Promise.all([
      known ?? loadIssueDetails(this.deps.db, views.map((v) => v.issue)),
      this.usersById([...new Set(views.map((v) => v.pull.mergedById).filter((id): id is number => !!id))]),
    ]);
    return { details, mergers };
  }

  /** The other repositories the heads of these pull requests are in, with the viewer's permission (a deleted one is absent). */
  headRepos(views: PullView[], viewer: UserRow | null) {
    return this.access.reposById([...new Set(views.filter((v) => fromOtherRepo(v.pull)).map((v) => v.pull.headRepoId))], viewer);
  }

  async repoRow(tx: Db, id: number): Promise<RepoRow> {
    const [row] = await tx.select().from(repositories).where(eq(repositories.id, id));
    return row!;
  }

  private async milestoneIn(repoId: number, id: number): Promise<number> {
    const [m] = await this.deps.db.select({ id: milestones.id }).from(milestones).where(and(eq(milestones.id, id), eq(milestones.repoId, repoId)));
    if (!m) throw new NotFound(`milestone does not exist [id: ${id}, repo_id: ${repoId}]`);
    return m.id;
  }

  /** Assignees must exist (422) and be able to write the repository's pull requests (422). */
  private async assignable(loaded: LoadedRepo, names: string[]): Promise<number[]> {
    const ids = [...new Set(await this.issues.assigneeIds(this.deps.db, names))];
    for (const user of (await this.usersById(ids)).values()) {
      const perm = await this.access.repoPermission(loaded.repo, loaded.owner, user);
      if (!canWrite(perm, 'repo.pulls')) {
        throw new Invalid(`user does not have access to repo [user_id: ${user.id}, repo_name: ${loaded.repo.name}]`);
      }
    }
    return ids;
  }

  private async usersById(ids: number[]): Promise<Map<number, UserRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.deps.db.select().from(users).where(inArray(users.id, ids));
    return new Map(rows.map((u) => [u.id, u]));
  }
}
