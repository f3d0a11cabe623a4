// Reading runs and jobs for the API: filters as Gitea maps them, each page in at most a few queries.
import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import {
  actionRunJobs, actionRunners, actionRuns, actionTasks, actionTaskSteps, repositories, users,
  type ActionRunJobRow, type ActionRunRow, type ActionState, type ActionTaskRow, type ActionTaskStepRow, type RepoRow, type UserRow,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import type { ServiceDeps } from '../context.js';
import { Invalid } from '../errors.js';

/** The API's status filter values and the states each stands for (Gitea's mapping). */
export const statusFilters: Record<string, ActionState[]> = {
  pending: ['blocked'], waiting: ['blocked'], requested: ['blocked'], action_required: ['blocked'],
  queued: ['waiting'], in_progress: ['running'], completed: ['success', 'failure', 'skipped', 'cancelled'],
  failure: ['failure'], success: ['success'], skipped: ['skipped'], neutral: ['skipped'], cancelled: ['cancelled'], timed_out: ['cancelled'],
};

function statesOf(filters: string[] | undefined): ActionState[] | undefined {
  if (!filters || filters.length === 0) return undefined;
  const out = new Set<ActionState>();
  for (const f of filters) {
    const states = statusFilters[f];
    if (!states) throw new Invalid(`Invalid status ${f}`);
    for (const s of states) out.add(s);
  }
  return [...out];
}

export interface RunView {
  run: ActionRunRow;
  repo: RepoRow;
  owner: UserRow;
  actor: UserRow | undefined;
}

export interface JobView {
  job: ActionRunJobRow;
  run: ActionRunRow;
  repo: RepoRow;
  owner: UserRow;
  runnerName: string | undefined;
  runnerId: number | undefined;
  steps: ActionTaskStepRow[];
}

type RunFilter = { ownerId?: number; repoId?: number; runId?: number; runIndex?: number; event?: string; branch?: string; status?: string[]; actor?: string; headSha?: string; limit: number; offset: number };
type JobFilter = { ownerId?: number; repoId?: number; runId?: number; jobId?: number; status?: string[]; order: 'asc' | 'desc'; limit: number; offset: number };

/** The API's reads, on a connection or inside a transaction (webhook payloads are built in the event's). */
export class ActionQueries {
  constructor(private readonly deps: ServiceDeps) {}

  listRuns(opts: RunFilter, db: Db = this.deps.db): Promise<{ rows: RunView[]; total: number }> {
    return findRuns(db, opts);
  }

  listJobs(opts: JobFilter, db: Db = this.deps.db): Promise<{ rows: JobView[]; total: number }> {
    return findJobs(db, opts);
  }
}

async function reposById(db: Db, ids: number[]): Promise<Map<number, { repo: RepoRow; owner: UserRow }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ repo: repositories, owner: users }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(inArray(repositories.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.repo.id, r]));
}

export async function findRuns(db: Db, opts: RunFilter): Promise<{ rows: RunView[]; total: number }> {
  const conds: SQL[] = [];
  if (opts.ownerId !== undefined) conds.push(eq(actionRuns.ownerId, opts.ownerId));
  if (opts.repoId !== undefined) conds.push(eq(actionRuns.repoId, opts.repoId));
  if (opts.runId !== undefined) conds.push(eq(actionRuns.id, opts.runId));
  if (opts.runIndex !== undefined) conds.push(eq(actionRuns.index, opts.runIndex));
  const states = statesOf(opts.status);
  if (states) conds.push(inArray(actionRuns.status, states));
  if (opts.event) conds.push(eq(actionRuns.event, opts.event));
  if (opts.branch) conds.push(eq(actionRuns.ref, `refs/heads/${opts.branch}`));
  if (opts.headSha) conds.push(eq(actionRuns.commitSha, opts.headSha));
  if (opts.actor) {
    const [u] = await db.select({ id: users.id }).from(users).where(eq(users.lowerName, opts.actor.toLowerCase()));
    if (!u) throw new Invalid(`[actor]: user "${opts.actor}" does not exist`);
    conds.push(eq(actionRuns.triggerUserId, u.id));
  }
  const where = conds.length ? and(...conds) : undefined;
  const [rows, [total]] = await Promise.all([
    db.select().from(actionRuns).where(where).orderBy(desc(actionRuns.id)).limit(opts.limit).offset(opts.offset),
    db.select({ n: count() }).from(actionRuns).where(where),
  ]);
  const repos = await reposById(db, rows.map((r) => r.repoId));
  const actorIds = [...new Set(rows.map((r) => r.triggerUserId))];
  const actors = actorIds.length ? await db.select().from(users).where(inArray(users.id, actorIds)) : [];
  const byId = new Map(actors.map((a) => [a.id, a]));
  return {
    rows: rows.flatMap((run) => {
      const r = repos.get(run.repoId);
      return r ? [{ run, ...r, actor: byId.get(run.triggerUserId) }] : [];
    }),
    total: Number(total?.n ?? 0),
  };
}

export async function findJobs(db: Db, opts: JobFilter): Promise<{ rows: JobView[]; total: number }> {
  const states = statesOf(opts.status);
  const conds: SQL[] = [];
  if (states) conds.push(inArray(actionRunJobs.status, states));
  if (opts.ownerId !== undefined) conds.push(eq(actionRunJobs.ownerId, opts.ownerId));
  if (opts.repoId !== undefined) conds.push(eq(actionRunJobs.repoId, opts.repoId));
  if (opts.runId !== undefined) conds.push(eq(actionRunJobs.runId, opts.runId));
  if (opts.jobId !== undefined) conds.push(eq(actionRunJobs.id, opts.jobId));
  const where = conds.length ? and(...conds) : undefined;
  const [rows, [total]] = await Promise.all([
    db.select().from(actionRunJobs).where(where).orderBy(opts.order === 'desc' ? desc(actionRunJobs.id) : asc(actionRunJobs.id)).limit(opts.limit).offset(opts.offset),
    db.select({ n: count() }).from(actionRunJobs).where(where),
  ]);
  return { rows: await jobViews(db, rows), total: Number(total?.n ?? 0) };
}

async function jobViews(db: Db, jobs: ActionRunJobRow[]): Promise<JobView[]> {
  if (jobs.length === 0) return [];
  const runIds = [...new Set(jobs.map((j) => j.runId))];
  const taskIds = jobs.flatMap((j) => (j.taskId ? [j.taskId] : []));
  const [runs, repos, steps, tasks] = await Promise.all([
    db.select().from(actionRuns).where(inArray(actionRuns.id, runIds)),
    reposById(db, jobs.map((j) => j.repoId)),
    taskIds.length ? db.select().from(actionTaskSteps).where(inArray(actionTaskSteps.taskId, taskIds)).orderBy(asc(actionTaskSteps.index)) : [],
    taskIds.length
      ? db.select({ taskId: actionTasks.id, runnerId: actionTasks.runnerId, name: actionRunners.name }).from(actionTasks).leftJoin(actionRunners, eq(actionRunners.id, actionTasks.runnerId)).where(inArray(actionTasks.id, taskIds))
      : [],
  ]);
  const runById = new Map(runs.map((r) => [r.id, r]));
  // The runner may be gone (deleted): the job keeps its id, without a name.
  const taskRunner = new Map(tasks.map((t) => [t.taskId, { id: t.runnerId, name: t.name ?? undefined }]));
  return jobs.flatMap((job) => {
    const run = runById.get(job.runId);
    const r = repos.get(job.repoId);
    if (!run || !r) return [];
    const tr = job.taskId ? taskRunner.get(job.taskId) : undefined;
    return [{ job, run, ...r, runnerId: tr?.id, runnerName: tr?.name, steps: steps.filter((s) => s.taskId === job.taskId) }];
  });
}

export interface TaskView {
  task: ActionTaskRow;
  job: ActionRunJobRow;
  run: ActionRunRow;
}

/** A repository's tasks (attempts of its jobs on runners), newest first. */
export async function findTasks(db: Db, opts: { repoId: number; limit: number; offset: number }): Promise<{ rows: TaskView[]; total: number }> {
  const where = eq(actionRunJobs.repoId, opts.repoId);
  const [rows, [total]] = await Promise.all([
    db.select({ task: actionTasks, job: actionRunJobs, run: actionRuns }).from(actionTasks)
      .innerJoin(actionRunJobs, eq(actionRunJobs.id, actionTasks.jobId))
      .innerJoin(actionRuns, eq(actionRuns.id, actionRunJobs.runId))
      .where(where).orderBy(desc(actionTasks.id)).limit(opts.limit).offset(opts.offset),
    db.select({ n: count() }).from(actionTasks).innerJoin(actionRunJobs, eq(actionRunJobs.id, actionTasks.jobId)).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}
