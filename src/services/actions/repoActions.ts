// A repository's Actions through the API: its runs, jobs and logs (readers of the Actions unit), and
// re-running, cancelling, deleting and dispatching runs (its writers).
import { readFile, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { and, eq, inArray } from 'drizzle-orm';
import { actionRunJobs, actionRuns, actionTasks, users, type ActionState, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { readCommit } from '../../git/objects.js';
import { repoDir } from '../../git/paths.js';
import { resolveCommit } from '../../git/refs.js';
import { canRead, canWrite } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Conflict, Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import type { ActionQueries, JobView, RunView } from './queries.js';
import { aggregateState, bumpTasksVersion, isDone, type ActionService, type WorkflowFile } from './runs.js';
import { planJobs } from './workflow.js';

const pgunzip = promisify(gunzip);

export interface WorkflowView {
  file: WorkflowFile;
  commitDate: Date;
  branch: string;
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
  constructor(private readonly deps: ServiceDeps, private readonly actions: ActionService, private readonly queries: ActionQueries) {}

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

  /** The log of the job's latest task: '' when it has not run (or its file is gone). */
  async jobLog(loaded: LoadedRepo, jobId: number): Promise<string> {
    const { job } = await this.job(loaded, jobId);
    if (!job.taskId) return '';
    const [task] = await this.deps.db.select().from(actionTasks).where(eq(actionTasks.id, job.taskId));
    if (!task?.logFile) return '';
    const bytes = await readFile(task.logFile).catch(() => undefined);
    if (!bytes) return '';
    return (task.logCompressed ? await pgunzip(bytes) : bytes).toString('utf8');
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
    for (const f of files) await rm(f, { force: true });
  }

  /** The workflow files of the default branch. */
  async workflows(loaded: LoadedRepo): Promise<WorkflowView[]> {
    requireReader(loaded);
    if (loaded.repo.isEmpty) return [];
    const dir = this.dir(loaded);
    const sha = await resolveCommit(dir, loaded.repo.defaultBranch);
    if (!sha) return [];
    const [files, commit] = await Promise.all([this.actions.workflowsAt(dir, sha), readCommit(dir, sha)]);
    return files.map((file) => ({ file, commitDate: commit.committer.date, branch: loaded.repo.defaultBranch }));
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
