// A repository's Actions through the API: its runs, jobs and logs (readers of the Actions unit), and
// re-running, cancelling, deleting and dispatching runs (its writers).
import { Readable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import { actionDisabledWorkflows, actionRunJobs, actionRuns, actionTasks, users, type ActionRunJobRow, type ActionState, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { readCommit } from '../../git/objects.js';
import { repoDir } from '../../git/paths.js';
import { resolveCommit } from '../../git/refs.js';
import { canRead, canWrite } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Conflict, Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { findTasks, type ActionQueries, type JobView, type RunView } from './queries.js';
import { aggregateState, bumpTasksVersion, isDone, type ActionService, type WorkflowFile } from './runs.js';
import { entryName, zipStream, type ZipEntry } from './logArchive.js';
import { planJobs } from './workflow.js';
import { TaskLogs } from './taskLogs.js';


export interface WorkflowView {
  file: WorkflowFile;
  commitDate: Date;
  branch: string;
  /** Switched off with `PUT …/disable`: it makes no runs. */
  disabled: boolean;
}

/** The jobs a partial re-run starts again: `picked` and every job that needs one of them, directly or not. */
export function withDependents(jobs: ActionRunJobRow[], picked: ActionRunJobRow[]): ActionRunJobRow[] {
  const keys = new Set(picked.map((j) => j.jobId));
  let grew = true;
  while (grew) {
    grew = false;
    for (const j of jobs) {
      if (!keys.has(j.jobId) && j.needs.some((n) => keys.has(n))) {
        keys.add(j.jobId);
        grew = true;
      }
    }
  }
  return jobs.filter((j) => keys.has(j.jobId));
}

export function requireReader(loaded: LoadedRepo): void {
  if (!canRead(loaded.perm, 'repo.actions')) throw new NotFound();
}

export function requireWriter(loaded: LoadedRepo): void {
  requireReader(loaded);
  if (!canWrite(loaded.perm, 'repo.actions')) throw new Forbidden('user should have a permission to write to a repo');
  if (loaded.repo.isArchived) throw new RepoArchived();
}

export class RepoActionService {
  private readonly logs: TaskLogs;

  constructor(private readonly deps: ServiceDeps, private readonly actions: ActionService, private readonly queries: ActionQueries) {
    this.logs = new TaskLogs(deps);
  }

  private dir(loaded: LoadedRepo): string {
    return repoDir(this.deps.config.dataDir, loaded.owner.name, loaded.repo.name);
  }

  listRuns(loaded: LoadedRepo, opts: Omit<Parameters<ActionQueries['listRuns']>[0], 'repoId' | 'runId'>) {
    requireReader(loaded);
    return this.queries.listRuns({ ...opts, repoId: loaded.repo.id });
  }

  async run(loaded: LoadedRepo, runId: number): Promise<RunView> {
    requireReader(loaded);
    const { rows } = await this.queries.listRuns({ repoId: loaded.repo.id, runId, limit: 1, offset: 0 });
    if (!rows[0]) throw new NotFound('run not found');
    return rows[0];
  }

  /** A run by its number in the repository (`run_number`, the web page's `/actions/runs/{n}`). */
  async runByNumber(loaded: LoadedRepo, runNumber: number): Promise<RunView> {
    requireReader(loaded);
    const { rows } = await this.queries.listRuns({ repoId: loaded.repo.id, runIndex: runNumber, limit: 1, offset: 0 });
    if (!rows[0]) throw new NotFound('run not found');
    return rows[0];
  }

  async runJobs(loaded: LoadedRepo, runId: number, opts: { status?: string[]; limit: number; offset: number }) {
    await this.run(loaded, runId);
    return this.queries.listJobs({ ...opts, repoId: loaded.repo.id, runId, order: 'asc' });
  }

  async job(loaded: LoadedRepo, jobId: number): Promise<JobView> {
    requireReader(loaded);
    const { rows } = await this.queries.listJobs({ repoId: loaded.repo.id, jobId, order: 'asc', limit: 1, offset: 0 });
    if (!rows[0]) throw new NotFound('job not found');
    return rows[0];
  }

  /**
   * The log of the job's latest task, streamed (taskLogs.ts: from the database while it runs, from the
   * actions_log storage afterwards): empty when it has not run (or its file is gone).
   */
  async jobLog(loaded: LoadedRepo, jobId: number): Promise<Readable> {
    const { job } = await this.job(loaded, jobId);
    if (!job.taskId) return Readable.from([]);
    return this.logs.open(job.taskId);
  }

  /**
   * The run's logs as one zip (its `logs_url`): a text file per job of its latest attempt, in job order,
   * each as the job's own log reads (empty for a job that has not run), streamed from each log (taskLogs.ts).
   */
  async runLogs(loaded: LoadedRepo, runId: number): Promise<{ stream: Readable; name: string }> {
    const run = await this.run(loaded, runId);
    const jobs = await this.deps.db.select().from(actionRunJobs).where(eq(actionRunJobs.runId, run.run.id)).orderBy(actionRunJobs.id);
    const entries: ZipEntry[] = jobs.map((job, i) => ({
      name: entryName(i + 1, job.name),
      open: async () => (job.taskId === null ? Readable.from([]) : this.logs.open(job.taskId)),
    }));
    return { stream: zipStream(entries), name: `${loaded.repo.name}-run-${run.run.index}-logs.zip` };
  }

  /** A new attempt of every job of an ended run. */
  async rerun(loaded: LoadedRepo, runId: number): Promise<RunView> {
    requireWriter(loaded);
    await withTx(this.deps.db, async (tx) => {
      const [run] = await tx.select().from(actionRuns).where(and(eq(actionRuns.id, runId), eq(actionRuns.repoId, loaded.repo.id))).for('update');
      if (!run) throw new NotFound('run not found');
      if (!isDone(run.status)) throw new Conflict('the run has not ended');
      const jobs = await tx.select().from(actionRunJobs).where(eq(actionRunJobs.runId, run.id)).orderBy(actionRunJobs.id).for('update');
      if (jobs.length === 0) throw new Conflict('the run has no jobs (its workflow did not parse)');
      const now = new Date();
      const states: ActionState[] = [];
      const reset = [];
      for (const job of jobs) {
        const status: ActionState = job.needs.length ? 'blocked' : 'waiting';
        states.push(status);
        const [row] = await tx
          .update(actionRunJobs)
          .set({ status, taskId: null, started: null, stopped: null, updatedAt: now })
          .where(eq(actionRunJobs.id, job.id))
          .returning();
        reset.push(row!);
      }
      const [updated] = await tx
        .update(actionRuns)
        .set({ attempt: run.attempt + 1, status: aggregateState(states), started: null, stopped: null, updatedAt: now })
        .where(eq(actionRuns.id, run.id))
        .returning();
      await bumpTasksVersion(tx);
      await this.actions.reportRun(tx, loaded.repo, updated!, 'requested');
      await this.actions.reportJobs(tx, loaded.repo, updated!, reset);
    });
    return this.run(loaded, runId);
  }

  /** Cancels the jobs that have not ended; their running tasks answer `cancelled` to the runner's next report. */
  async cancel(loaded: LoadedRepo, runId: number): Promise<void> {
    requireWriter(loaded);
    await withTx(this.deps.db, async (tx) => {
      const [run] = await tx.select().from(actionRuns).where(and(eq(actionRuns.id, runId), eq(actionRuns.repoId, loaded.repo.id))).for('update');
      if (!run) throw new NotFound('run not found');
      if (isDone(run.status)) throw new Conflict('the run has already ended');
      const jobs = await tx.select().from(actionRunJobs).where(eq(actionRunJobs.runId, run.id)).for('update');
      const open = jobs.filter((j) => !isDone(j.status));
      const now = new Date();
      const cancelled = open.length
        ? await tx.update(actionRunJobs).set({ status: 'cancelled', stopped: now, updatedAt: now }).where(inArray(actionRunJobs.id, open.map((j) => j.id))).returning()
        : [];
      const tasks = open.flatMap((j) => (j.taskId ? [j.taskId] : []));
      if (tasks.length) await tx.update(actionTasks).set({ status: 'cancelled', stopped: now, updatedAt: now }).where(and(inArray(actionTasks.id, tasks), eq(actionTasks.status, 'running')));
      const { run: settled } = await this.actions.settleRun(tx, run.id);
      await this.actions.reportJobs(tx, loaded.repo, settled, cancelled);
    });
  }

  /** Deletes an ended run, its jobs and tasks, and their log files. */
  async deleteRun(loaded: LoadedRepo, runId: number): Promise<void> {
    requireWriter(loaded);
    const files = await withTx(this.deps.db, async (tx) => {
      const [run] = await tx.select().from(actionRuns).where(and(eq(actionRuns.id, runId), eq(actionRuns.repoId, loaded.repo.id))).for('update');
      if (!run) throw new NotFound('run not found');
      if (!isDone(run.status)) throw new BadRequest('this workflow run is not done');
      const logs = await tx
        .select({ file: actionTasks.logFile })
        .from(actionTasks)
        .innerJoin(actionRunJobs, eq(actionRunJobs.id, actionTasks.jobId))
        .where(eq(actionRunJobs.runId, run.id));
      await tx.delete(actionRuns).where(eq(actionRuns.id, run.id));
      return logs.map((l) => l.file).filter(Boolean);
    });
    // After the commit: a file left by a crash here is an orphan, not a broken run.
    await this.logs.remove(files);
  }

  /** The workflow files of the default branch. */
  async workflows(loaded: LoadedRepo): Promise<WorkflowView[]> {
    requireReader(loaded);
    if (loaded.repo.isEmpty) return [];
    const dir = this.dir(loaded);
    const sha = await resolveCommit(dir, loaded.repo.defaultBranch);
    if (!sha) return [];
    const [files, commit, off] = await Promise.all([
      this.actions.workflowsAt(dir, sha),
      readCommit(dir, sha),
      this.deps.db.select({ id: actionDisabledWorkflows.workflowId }).from(actionDisabledWorkflows).where(eq(actionDisabledWorkflows.repoId, loaded.repo.id)),
    ]);
    const disabled = new Set(off.map((d) => d.id));
    return files.map((file) => ({ file, commitDate: commit.committer.date, branch: loaded.repo.defaultBranch, disabled: disabled.has(file.name) }));
  }

  /** One workflow file of the default branch, by file name. */
  async workflow(loaded: LoadedRepo, workflowId: string): Promise<WorkflowView> {
    const found = (await this.workflows(loaded)).find((w) => w.file.name === workflowId);
    if (!found) throw new NotFound(`workflow "${workflowId}" not found`);
    return found;
  }

  /** Switches a workflow of the default branch off (no runs, whatever triggers it) or on again. */
  async setWorkflowEnabled(loaded: LoadedRepo, workflowId: string, enabled: boolean): Promise<void> {
    requireWriter(loaded);
    await this.workflow(loaded, workflowId);
    if (enabled) {
      await this.deps.db.delete(actionDisabledWorkflows).where(and(eq(actionDisabledWorkflows.repoId, loaded.repo.id), eq(actionDisabledWorkflows.workflowId, workflowId)));
    } else {
      await this.deps.db.insert(actionDisabledWorkflows).values({ repoId: loaded.repo.id, workflowId }).onConflictDoNothing();
    }
  }

  listJobs(loaded: LoadedRepo, opts: { status?: string[]; order: 'asc' | 'desc'; limit: number; offset: number }) {
    requireReader(loaded);
    return this.queries.listJobs({ ...opts, repoId: loaded.repo.id });
  }

  tasks(loaded: LoadedRepo, page: { limit: number; offset: number }) {
    requireReader(loaded);
    return findTasks(this.deps.db, { repoId: loaded.repo.id, ...page });
  }

  /**
   * A new attempt of some jobs of an ended run (`pick` chooses them from the run's jobs) and of every job
   * that needs them; the other jobs keep their results. A re-run job whose needs all kept their results
   * waits for a runner at once, the others for their needs. Answers the re-run jobs.
   */
  private async rerunSome(loaded: LoadedRepo, runId: number, pick: (jobs: ActionRunJobRow[]) => ActionRunJobRow[]): Promise<ActionRunJobRow[]> {
    requireWriter(loaded);
    return withTx(this.deps.db, async (tx) => {
      const [run] = await tx.select().from(actionRuns).where(and(eq(actionRuns.id, runId), eq(actionRuns.repoId, loaded.repo.id))).for('update');
      if (!run) throw new NotFound('run not found');
      if (!isDone(run.status)) throw new Conflict('the run has not ended');
      const jobs = await tx.select().from(actionRunJobs).where(eq(actionRunJobs.runId, run.id)).orderBy(actionRunJobs.id).for('update');
      const picked = pick(jobs);
      const again = withDependents(jobs, picked);
      const keys = new Set(again.map((j) => j.jobId));
      const now = new Date();
      const reset: ActionRunJobRow[] = [];
      for (const job of again) {
        // Waiting at once when none of its needs runs again (settleRun below starts those whose needs all ended).
        const status: ActionState = job.needs.length ? 'blocked' : 'waiting';
        const [row] = await tx
          .update(actionRunJobs)
          .set({ status, taskId: null, started: null, stopped: null, updatedAt: now })
          .where(eq(actionRunJobs.id, job.id))
          .returning();
        reset.push(row!);
      }
      const states = jobs.map((j) => (keys.has(j.jobId) ? reset.find((r) => r.id === j.id)!.status : j.status));
      const [updated] = await tx
        .update(actionRuns)
        .set({ attempt: run.attempt + 1, status: aggregateState(states), started: null, stopped: null, updatedAt: now })
        .where(eq(actionRuns.id, run.id))
        .returning();
      await bumpTasksVersion(tx);
      await this.actions.reportRun(tx, loaded.repo, updated!, 'requested');
      const { run: settled, changed } = await this.actions.settleRun(tx, run.id);
      const latest = new Map([...reset, ...changed].map((j) => [j.id, j]));
      await this.actions.reportJobs(tx, loaded.repo, settled, [...latest.values()]);
      return [...latest.values()];
    });
  }

  /** Re-runs one job of an ended run (and the jobs that need it); answers the job as it is now. */
  async rerunJob(loaded: LoadedRepo, runId: number, jobId: number): Promise<JobView> {
    const { job } = await this.job(loaded, jobId);
    if (job.runId !== runId) throw new NotFound('workflow job not found');
    await this.rerunSome(loaded, runId, (jobs) => {
      const job = jobs.find((j) => j.id === jobId);
      if (!job) throw new NotFound('workflow job not found');
      return [job];
    });
    return this.job(loaded, jobId);
  }

  /** Re-runs the failed and cancelled jobs of an ended run (and the jobs that need them). */
  async rerunFailed(loaded: LoadedRepo, runId: number): Promise<void> {
    await this.rerunSome(loaded, runId, (jobs) => {
      const failed = jobs.filter((j) => j.status === 'failure' || j.status === 'cancelled');
      if (failed.length === 0 && jobs.length > 0) throw new BadRequest('the run has no failed jobs');
      if (jobs.length === 0) throw new Conflict('the run has no jobs (its workflow did not parse)');
      return failed;
    });
  }

  /**
   * Approves a run of a fork's pull request that waits for approval: its jobs without needs wait for a
   * runner, and the author's later runs in this repository need no approval (Gitea's rule).
   */
  async approve(loaded: LoadedRepo, actor: UserRow, runId: number): Promise<void> {
    requireWriter(loaded);
    await withTx(this.deps.db, async (tx) => {
      const [run] = await tx.select().from(actionRuns).where(and(eq(actionRuns.id, runId), eq(actionRuns.repoId, loaded.repo.id))).for('update');
      if (!run) throw new NotFound('run not found');
      if (!run.needApproval) throw new Conflict('the run does not wait for approval');
      await tx.update(actionRuns).set({ needApproval: false, approvedBy: actor.id, updatedAt: new Date() }).where(eq(actionRuns.id, run.id));
      const { run: settled, changed } = await this.actions.settleRun(tx, run.id);
      await this.actions.reportJobs(tx, loaded.repo, settled, changed);
    });
  }

  /** A run of `workflowId` as it is at `ref`, by hand (`workflow_dispatch`), with its inputs checked. */
  async dispatch(loaded: LoadedRepo, actor: UserRow, workflowId: string, refName: string, inputs: Record<string, string>): Promise<void> {
    requireWriter(loaded);
    const dir = this.dir(loaded);
    const given = refName.trim();
    const sha = loaded.repo.isEmpty || !given ? undefined : await resolveCommit(dir, given.replace(/^refs\/(heads|tags)\//, ''));
    if (!sha) throw new NotFound(`ref "${refName}" not found`);
    const file = (await this.actions.workflowsAt(dir, sha)).find((f) => f.name === workflowId);
    if (!file) throw new NotFound(`workflow "${workflowId}" not found`);
    if (!file.workflow) throw new Invalid(`workflow "${workflowId}" does not parse: ${file.error}`);
    if (!('workflow_dispatch' in file.workflow.on)) throw new Invalid(`workflow "${workflowId}" has no workflow_dispatch trigger`);
    const [off] = await this.deps.db.select({ id: actionDisabledWorkflows.workflowId }).from(actionDisabledWorkflows)
      .where(and(eq(actionDisabledWorkflows.repoId, loaded.repo.id), eq(actionDisabledWorkflows.workflowId, workflowId)));
    if (off) throw new Forbidden('workflow is disabled');
    const declared = (file.workflow.on.workflow_dispatch as { inputs?: Record<string, { required?: boolean; default?: unknown; type?: string; options?: unknown[] }> } | null)?.inputs ?? {};
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(inputs)) {
      if (!(name in declared)) throw new Invalid(`[inputs]: "${name}" is not an input of the workflow`);
      values[name] = value;
    }
    for (const [name, spec] of Object.entries(declared)) {
      const def = spec?.default;
      if (!(name in values) && def !== undefined && def !== null) values[name] = String(def);
      if (spec?.required && !values[name]) throw new Invalid(`[inputs]: "${name}" is required`);
      if (spec?.type === 'choice' && Array.isArray(spec.options) && name in values && !spec.options.map(String).includes(values[name]!)) {
        throw new Invalid(`[inputs]: "${name}" must be one of ${spec.options.map(String).join(', ')}`);
      }
      if (spec?.type === 'boolean' && name in values && !['true', 'false'].includes(values[name]!)) throw new Invalid(`[inputs]: "${name}" must be true or false`);
    }
    const commit = await readCommit(dir, sha);
    const ref = given.startsWith('refs/') ? given : (await resolveCommit(dir, `refs/heads/${given}`)) === sha ? `refs/heads/${given}` : (await resolveCommit(dir, `refs/tags/${given}`)) === sha ? `refs/tags/${given}` : sha;
    const [sender] = await this.deps.db.select({ login: users.name, id: users.id }).from(users).where(eq(users.id, actor.id));
    const payload = {
      inputs: values, ref, workflow: `${file.dir}/${file.name}`,
      repository: { id: loaded.repo.id, name: loaded.repo.name, full_name: `${loaded.owner.name}/${loaded.repo.name}` },
      sender,
    };
    await withTx(this.deps.db, (tx) =>
      this.actions.insertRuns(tx, loaded.repo, [{ file, jobs: planJobs(file.workflow!), event: 'workflow_dispatch', ref, actorId: actor.id, payload, commit }]),
    );
  }
}
