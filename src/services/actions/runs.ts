// Workflow runs: a queued trigger (a push) becomes runs and jobs, and jobs move through Gitea's states.
// Git is read before each transaction opens (PGlite has one connection); a trigger is deleted in the
// transaction that writes its runs, so it makes them exactly once whatever crashes.
import { and, eq, gt, sql } from 'drizzle-orm';
import { Cron } from 'croner';
import type { Db } from '../../db/client.js';
import {
  actionDisabledWorkflows, actionRunJobs, actionRuns, actionSchedules, actionTasksVersion, actionTriggers, events, repositories, users, type ActionTriggerRow,
  type ActionRunJobRow, type ActionRunRow, type ActionState, type RepoRow, type UserRow,
} from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { changedPaths, readBlobs, readCommit, readDir, type CommitData } from '../../git/objects.js';
import { isWorkflowFile, workflowDirs } from './workflowFiles.js';
import { repoDir } from '../../git/paths.js';
import type { ServiceDeps } from '../context.js';
import { canWrite } from '../../permissions/repo.js';
import { AccessService } from '../repos/access.js';
import type { RecordedEvent } from '../events/types.js';
import { writeStatus, type CommitStatusState } from '../git/statuses.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import { matchesPullRequest, matchesPush, needsPaths, needsPullPaths, parseWorkflow, planJobs, runsAfterNeeds, scheduleCrons, WorkflowError, type PlannedJob, type Workflow } from './workflow.js';

export const doneStates: readonly ActionState[] = ['success', 'failure', 'cancelled', 'skipped'];
export const isDone = (s: ActionState) => doneStates.includes(s);

/** A run's state from its jobs' (Gitea's aggregation). */
export function aggregateState(states: ActionState[]): ActionState {
  if (states.length === 0) return 'success';
  if (states.every(isDone)) {
    if (states.includes('failure')) return 'failure';
    if (states.includes('cancelled')) return 'cancelled';
    if (states.every((s) => s === 'skipped')) return 'skipped';
    return 'success';
  }
  if (states.includes('running')) return 'running';
  if (states.includes('waiting')) return 'waiting';
  return 'blocked';
}

/** A job's state as its workflow_job webhook's action. */
const jobAction = { waiting: 'queued', blocked: 'waiting', running: 'in_progress', success: 'completed', failure: 'completed', cancelled: 'completed', skipped: 'completed' } as const;

const statusOf: Record<ActionState, CommitStatusState> = {
  waiting: 'pending', blocked: 'pending', running: 'pending', success: 'success', failure: 'failure', cancelled: 'failure', skipped: 'skipped',
};

function describe(job: ActionRunJobRow): string {
  const secs = job.started && job.stopped ? Math.max(0, Math.round((job.stopped.getTime() - job.started.getTime()) / 1000)) : 0;
  switch (job.status) {
    case 'waiting': return 'Waiting to run';
    case 'blocked': return 'Blocked by required conditions';
    case 'running': return 'Has started running';
    case 'success': return `Successful in ${secs}s`;
    case 'failure': return `Failing after ${secs}s`;
    case 'cancelled': return 'Has been cancelled';
    case 'skipped': return 'Has been skipped';
  }
}

export interface WorkflowFile {
  dir: string;
  name: string;
  workflow?: Workflow;
  error?: string;
}

interface NewRun {
  file: WorkflowFile;
  jobs: PlannedJob[];
  event: string;
  ref: string;
  actorId: number;
  payload: Record<string, unknown>;
  commit: CommitData;
  /** A pull request's run whose head is in a fork: no secrets for its tasks. */
  isFork?: boolean;
  /** Its jobs wait for a writer's approval (`POST …/runs/{run}/approve`). */
  needApproval?: boolean;
}

export class ActionService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The workflow files at a commit, parsed (a file that does not parse carries its error). */
  async workflowsAt(dir: string, sha: string): Promise<WorkflowFile[]> {
    for (const wfDir of workflowDirs) {
      // Read through the repository's cat-file reader: no git process for the push of a repository without workflows.
      const entries = (await readDir(dir, sha, wfDir).catch(() => [])).filter(isWorkflowFile);
      if (entries.length === 0) continue;
      entries.sort((a, b) => a.name.localeCompare(b.name));
      const blobs = await readBlobs(dir, entries.map((e) => e.id));
      const out: WorkflowFile[] = [];
      for (const [i, { name }] of entries.entries()) {
        try {
          out.push({ dir: wfDir, name, workflow: parseWorkflow(blobs[i]!.toString('utf8')) });
        } catch (err) {
          if (!(err instanceof WorkflowError)) throw err;
          out.push({ dir: wfDir, name, error: err.message });
        }
      }
      return out;
    }
    return [];
  }

  /**
   * Turns a claimed trigger into runs: every workflow whose `on: push` (or, for a pull request's trigger,
   * `on: pull_request`) filters match, and a failed run (titled with the reason) for each workflow file
   * that does not parse, as Gitea shows them. A default-branch push also replaces the schedules.
   */
  async processTrigger(trigger: ActionTriggerRow): Promise<void> {
    const { db, config } = this.deps;
    const triggerId = trigger.id;
    const drop = () => db.delete(actionTriggers).where(eq(actionTriggers.id, triggerId));
    const [row] = await db.select({ repo: repositories, owner: users }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(eq(repositories.id, trigger.repoId));
    if (!row || !row.repo.hasActions || row.repo.isArchived) return void (await drop());
    const dir = repoDir(config.dataDir, row.owner.name, row.repo.name);
    const files = await this.workflowsAt(dir, trigger.sha);
    // A push to the default branch replaces the repository's schedules with what its workflows now say.
    const schedules = trigger.ref === `refs/heads/${row.repo.defaultBranch}`
      ? files.flatMap((file) => (file.workflow ? scheduleCrons(file.workflow).map((cron) => ({ file, cron })) : []))
      : undefined;
    const pull = trigger.event === 'pull_request' ? trigger.data : undefined;
    let paths: string[] | undefined;
    const chosen: Array<{ file: WorkflowFile; jobs: PlannedJob[] }> = [];
    for (const file of files) {
      if (file.error) {
        chosen.push({ file, jobs: [] });
        continue;
      }
      const wf = file.workflow!;
      if (pull) {
        // The paths a pull request changes: from its merge base to its head.
        if (needsPullPaths(wf) && !paths) paths = await changedPaths(dir, pull.mergeBase ?? '', trigger.sha).catch(() => []);
        if (matchesPullRequest(wf, { action: pull.action ?? 'opened', baseBranch: pull.baseBranch ?? '', paths })) chosen.push({ file, jobs: planJobs(wf) });
        continue;
      }
      if (needsPaths(wf) && !paths) paths = await changedPaths(dir, /^0+$/.test(trigger.before) ? '' : trigger.before, trigger.sha).catch(() => []);
      if (matchesPush(wf, { ref: trigger.ref, paths })) chosen.push({ file, jobs: planJobs(wf) });
    }
    // A pull request's head is kept at refs/pull/<index>/head (PullService), which its runs name and runners fetch.
    if (chosen.length === 0 && !schedules) return void (await drop());
    const commit = chosen.length ? await readCommit(dir, trigger.sha) : undefined;
    const [ev] = commit ? await db.select().from(events).where(eq(events.id, trigger.eventId)) : [];
    const recorded = ev ? ({ ...(ev.data as object), type: ev.type, action: ev.action, actorId: ev.actorId, repoId: ev.repoId ?? undefined, ownerId: ev.ownerId ?? undefined, isPrivate: ev.isPrivate, id: ev.id, createdAt: ev.createdAt } as RecordedEvent) : undefined;
    const payload = (recorded && (await this.deps.payloads.build(db, recorded, config))?.body) || {};
    const isFork = pull?.isFork === true;
    const needApproval = isFork && chosen.length > 0 && (await this.forkRunNeedsApproval(row.repo, row.owner, trigger.actorId));
    await withTx(db, async (tx) => {
      // Deleting the trigger claims it for good: a second worker finds nothing to delete and writes nothing.
      const taken = await tx.delete(actionTriggers).where(eq(actionTriggers.id, triggerId)).returning({ id: actionTriggers.id });
      if (taken.length === 0) return;
      if (schedules) {
        await tx.delete(actionSchedules).where(eq(actionSchedules.repoId, row.repo.id));
        const now = new Date();
        const rows = schedules.flatMap(({ file, cron }) => {
          const next = nextOccurrence(cron, now);
          return next ? [{ repoId: row.repo.id, workflowId: file.name, workflowDir: file.dir, cron, ref: trigger.ref, commitSha: trigger.sha, triggerUserId: trigger.actorId, next }] : [];
        });
        if (rows.length) await tx.insert(actionSchedules).values(rows);
      }
      if (commit) await this.insertRuns(tx, row.repo, chosen.map(({ file, jobs }) => ({ file, jobs, event: trigger.event, ref: trigger.ref, actorId: trigger.actorId, payload, commit, isFork, needApproval })));
    });
  }

  /**
   * Gitea's rule for a run of a pull request from a fork: it waits for approval when its author is
   * restricted, or may not write to the repository's Actions and has never had a run approved here.
   */
  private async forkRunNeedsApproval(repo: RepoRow, owner: UserRow, actorId: number): Promise<boolean> {
    const [actor] = await this.deps.db.select().from(users).where(eq(users.id, actorId));
    if (!actor) return true;
    if (actor.isRestricted) return true;
    const perm = await new AccessService(this.deps).repoPermissionIn(this.deps.db, repo, owner, actor);
    if (canWrite(perm, 'repo.actions')) return false;
    const [approved] = await this.deps.db.select({ id: actionRuns.id }).from(actionRuns)
      .where(and(eq(actionRuns.repoId, repo.id), eq(actionRuns.triggerUserId, actorId), gt(actionRuns.approvedBy, 0))).limit(1);
    return !approved;
  }

  /**
   * Writes runs and their jobs, numbered in order under the repository's row lock, with each job's first
   * commit status. A file that did not parse becomes a failed run titled with the reason.
   */
  async insertRuns(tx: Db, repo: RepoRow, wanted: NewRun[]): Promise<ActionRunRow[]> {
    await tx.select({ id: repositories.id }).from(repositories).where(eq(repositories.id, repo.id)).for('update');
    // A workflow switched off (`PUT …/workflows/{id}/disable`) makes no runs, whatever triggered it.
    const disabled = new Set((await tx.select({ id: actionDisabledWorkflows.workflowId }).from(actionDisabledWorkflows).where(eq(actionDisabledWorkflows.repoId, repo.id))).map((d) => d.id));
    const runs = disabled.size ? wanted.filter((r) => !disabled.has(r.file.name)) : wanted;
    const [{ max }] = (await tx.select({ max: sql<string>`coalesce(max(${actionRuns.index}), 0)` }).from(actionRuns).where(eq(actionRuns.repoId, repo.id))) as [{ max: string }];
    let index = Number(max);
    const out: ActionRunRow[] = [];
    for (const { file, jobs, event, ref, actorId, payload, commit, isFork = false, needApproval = false } of runs) {
      const states = jobs.map((j): ActionState => (j.needs.length || needApproval ? 'blocked' : 'waiting'));
      const failed = file.error !== undefined;
      const [run] = await tx
        .insert(actionRuns)
        .values({
          repoId: repo.id, ownerId: repo.ownerId, workflowId: file.name, workflowDir: file.dir,
          workflowName: file.workflow?.name || file.name,
          title: failed ? `${file.name}: ${file.error}` : commit.message.split('\n')[0]!.trim(),
          index: ++index, triggerUserId: actorId, ref, commitSha: commit.id, commit: storedCommit(commit), event, eventPayload: payload,
          isForkPullRequest: isFork, needApproval: needApproval && !file.error,
          status: failed ? 'failure' : aggregateState(states), stopped: failed ? new Date() : null,
        })
        .returning();
      out.push(run!);
      await this.reportRun(tx, repo, run!, 'requested');
      if (failed) await this.reportRun(tx, repo, run!, 'completed');
      if (jobs.length === 0) continue;
      const inserted = await tx
        .insert(actionRunJobs)
        .values(jobs.map((j, i) => ({
          runId: run!.id, repoId: run!.repoId, ownerId: run!.ownerId, jobId: j.jobId, name: j.name, workflowPayload: j.payload,
          needs: j.needs, runsOn: j.runsOn, condition: j.condition, status: states[i]!,
        })))
        .returning();
      await this.reportJobs(tx, repo, run!, inserted);
    }
    if (runs.some((r) => !r.needApproval && r.jobs.some((j) => j.needs.length === 0))) await bumpTasksVersion(tx);
    return out;
  }

  /** A commit status per job: `<workflow> / <job> (<event>)`, as Gitea reports them. */
  async reportJobs(tx: Db, repo: RepoRow, run: ActionRunRow, jobs: ActionRunJobRow[]): Promise<void> {
    const commit = runCommit(run);
    const [owner] = await tx.select({ name: users.name }).from(users).where(eq(users.id, repo.ownerId));
    const base = `${this.deps.config.rootUrl}${encodeURIComponent(owner?.name ?? '')}/${encodeURIComponent(repo.name)}/actions/runs/${run.index}`;
    for (const job of jobs) {
      await writeStatus(this.deps, tx, repo, run.triggerUserId, commit, {
        state: statusOf[job.status], targetUrl: `${base}/jobs/${job.id}`, description: describe(job), context: `${run.workflowName} / ${job.name} (${run.event})`,
      });
      await recordEvent(this.deps, tx, { type: 'workflow_job', action: jobAction[job.status], jobId: job.id, ...inRepo(repo, run.triggerUserId) });
    }
  }

  /** A run was made or re-run (`requested`), started or ended: its workflow_run event. */
  async reportRun(tx: Db, repo: RepoRow, run: ActionRunRow, action: 'requested' | 'in_progress' | 'completed'): Promise<void> {
    await recordEvent(this.deps, tx, { type: 'workflow_run', action, runId: run.id, ...inRepo(repo, run.triggerUserId) });
  }

  /**
   * After jobs of a run changed: blocked jobs whose needs have all ended start (waiting) or are skipped, in
   * as many rounds as skips cascade; then the run's state follows its jobs. Answers the jobs that changed.
   *
   * Lock order, everywhere: the run's row, then its jobs' rows. Settling holds the run's row and reads the
   * jobs without locking them (it changes only blocked jobs, which no runner takes); a runner taking a job
   * never waits for the run's row (see RunnerService.fetchTask), so no two transactions wait on each other.
   */
  async settleRun(tx: Db, runId: number): Promise<{ run: ActionRunRow; changed: ActionRunJobRow[] }> {
    await lockRun(tx, runId);
    const jobs = await tx.select().from(actionRunJobs).where(eq(actionRunJobs.runId, runId)).orderBy(actionRunJobs.id);
    const changed = new Map<number, ActionRunJobRow>();
    // A run waiting for approval starts nothing until it is approved (cancelling it still ends it).
    const [gate] = await tx.select({ needApproval: actionRuns.needApproval }).from(actionRuns).where(eq(actionRuns.id, runId));
    let moved = !gate?.needApproval;
    while (moved) {
      moved = false;
      for (const job of jobs) {
        if (job.status !== 'blocked') continue;
        const needed = jobs.filter((j) => job.needs.includes(j.jobId));
        if (!needed.every((j) => isDone(j.status))) continue;
        const now = new Date();
        const next: ActionState = runsAfterNeeds(job.condition, needed.map((j) => j.status)) ? 'waiting' : 'skipped';
        Object.assign(job, { status: next, updatedAt: now, ...(next === 'skipped' ? { stopped: now } : {}) });
        changed.set(job.id, job);
        moved = true;
      }
    }
    for (const job of changed.values()) {
      await tx.update(actionRunJobs).set({ status: job.status, stopped: job.stopped, updatedAt: job.updatedAt }).where(eq(actionRunJobs.id, job.id));
    }
    if ([...changed.values()].some((j) => j.status === 'waiting')) await bumpTasksVersion(tx);
    const state = aggregateState(jobs.map((j) => j.status));
    const [current] = await tx.select().from(actionRuns).where(eq(actionRuns.id, runId));
    const now = new Date();
    const [run] = await tx
      .update(actionRuns)
      .set({
        status: state, updatedAt: now,
        started: current!.started ?? (state === 'running' || isDone(state) ? (jobs.map((j) => j.started).filter((d): d is Date => !!d).sort((a, b) => a.getTime() - b.getTime())[0] ?? now) : null),
        stopped: isDone(state) ? current!.stopped ?? now : null,
      })
      .where(eq(actionRuns.id, runId))
      .returning();
    const was = current!.status;
    const action = isDone(state) && !isDone(was) ? 'completed' : state === 'running' && (was === 'waiting' || was === 'blocked') ? 'in_progress' : undefined;
    if (action) {
      const [repo] = await tx.select().from(repositories).where(eq(repositories.id, run!.repoId));
      if (repo) await this.reportRun(tx, repo, run!, action);
    }
    return { run: run!, changed: [...changed.values()] };
  }
}

const storedCommit = (c: CommitData): Record<string, unknown> => JSON.parse(JSON.stringify(c)) as Record<string, unknown>;

/** The run's commit as stored (dates revived). */
export function runCommit(run: ActionRunRow): CommitData {
  const c = run.commit as unknown as CommitData & { author: { date: string }; committer: { date: string } };
  return { ...c, author: { ...c.author, date: new Date(c.author.date) }, committer: { ...c.committer, date: new Date(c.committer.date) } };
}

/** The next time a workflow's cron expression fires after `after` (UTC, as GitHub reads them); undefined when it is no valid expression or never fires. */
export function nextOccurrence(cron: string, after: Date): Date | undefined {
  try {
    return new Cron(cron, { paused: true, timezone: 'UTC' }).nextRun(after) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Locks a run's row (first, before any of its jobs: the lock order of every change to a run). */
export async function lockRun(tx: Db, runId: number): Promise<void> {
  await tx.select({ id: actionRuns.id }).from(actionRuns).where(eq(actionRuns.id, runId)).for('update');
}

/** Runners polling with the version they last saw get an answer without a search until it moves. */
export async function bumpTasksVersion(tx: Db): Promise<void> {
  await tx
    .insert(actionTasksVersion)
    .values({ id: 1, version: 1 })
    .onConflictDoUpdate({ target: actionTasksVersion.id, set: { version: sql`${actionTasksVersion.version} + 1` } });
}

export async function tasksVersion(db: Db): Promise<number> {
  const [row] = await db.select({ v: actionTasksVersion.version }).from(actionTasksVersion).where(eq(actionTasksVersion.id, 1));
  return Number(row?.v ?? 0);
}
