// Actions upkeep, run by the cron tasks of Gitea's names: tasks whose runner went silent or that run too
// long fail, jobs no runner took are cancelled, old runs and their logs go, long-offline runners go.
// Each ended job settles its run and reports its commit status, as a runner's own report would.
import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { actionRunJobs, actionRunners, actionRuns, actionSchedules, actionTasks, repositories, users, type ActionState } from '../../db/schema/index.js';
import { readCommit } from '../../git/objects.js';
import { repoDir } from '../../git/paths.js';
import { withTx } from '../../db/tx.js';
import type { ServiceDeps } from '../context.js';
import { isDone, lockRun, nextOccurrence, type ActionService } from './runs.js';
import { planJobs } from './workflow.js';
import type { ArtifactService } from './artifacts.js';
import { TaskLogs } from './taskLogs.js';

export class ActionUpkeep {
  private readonly logs: TaskLogs;

  constructor(private readonly deps: ServiceDeps, private readonly actions: ActionService, private readonly artifacts: ArtifactService) {
    this.logs = new TaskLogs(deps);
  }

  /** Ends jobs (and their running tasks) with `state`, one transaction per run. Answers how many jobs ended. */
  private async endJobs(jobIds: number[], state: ActionState): Promise<number> {
    const jobs = jobIds.length ? await this.deps.db.select({ id: actionRunJobs.id, runId: actionRunJobs.runId }).from(actionRunJobs).where(inArray(actionRunJobs.id, jobIds)) : [];
    const byRun = new Map<number, number[]>();
    for (const j of jobs) byRun.set(j.runId, [...(byRun.get(j.runId) ?? []), j.id]);
    let n = 0;
    for (const [runId, ids] of byRun) {
      n += await withTx(this.deps.db, async (tx) => {
        const now = new Date();
        await lockRun(tx, runId);
        const locked = await tx.select().from(actionRunJobs).where(inArray(actionRunJobs.id, ids)).for('update');
        const open = locked.filter((j) => !isDone(j.status));
        if (open.length === 0) return 0;
        const ended = await tx.update(actionRunJobs).set({ status: state, stopped: now, updatedAt: now }).where(inArray(actionRunJobs.id, open.map((j) => j.id))).returning();
        const tasks = open.flatMap((j) => (j.taskId ? [j.taskId] : []));
        if (tasks.length) await tx.update(actionTasks).set({ status: state, stopped: now, updatedAt: now }).where(and(inArray(actionTasks.id, tasks), eq(actionTasks.status, 'running')));
        const { run, changed } = await this.actions.settleRun(tx, runId);
        const [repo] = await tx.select().from(repositories).where(eq(repositories.id, run.repoId));
        if (repo) await this.actions.reportJobs(tx, repo, run, [...ended, ...changed]);
        return ended.length;
      });
    }
    return n;
  }

  private async runningJobsWhere(cond: ReturnType<typeof and>): Promise<number[]> {
    const rows = await this.deps.db
      .select({ jobId: actionTasks.jobId })
      .from(actionTasks)
      .where(and(eq(actionTasks.status, 'running'), cond));
    return rows.map((r) => r.jobId);
  }

  /**
   * stop_zombie_tasks: running tasks not heard from within the timeout fail; the logs of tasks that ended
   * (failed here, cancelled, or their runner went away) without the runner's last log call, and not heard
   * from within the timeout either, are moved into storage (Gitea moves them as it stops them).
   */
  async stopZombieTasks(): Promise<string> {
    const timeout = this.deps.config.actions.zombieTaskTimeoutMs;
    const cutoff = new Date(Date.now() - timeout);
    const n = await this.endJobs(await this.runningJobsWhere(lt(actionTasks.updatedAt, cutoff)), 'failure');
    const moved = await this.logs.transferEnded(timeout);
    return `${n} task(s) not heard from since ${cutoff.toISOString()} failed; ${moved} ended task(s)' logs moved to storage`;
  }

  /** stop_endless_tasks: tasks running longer than the timeout fail. */
  async stopEndlessTasks(): Promise<string> {
    const cutoff = new Date(Date.now() - this.deps.config.actions.endlessTaskTimeoutMs);
    const n = await this.endJobs(await this.runningJobsWhere(lt(actionTasks.started, cutoff)), 'failure');
    return `${n} task(s) running since before ${cutoff.toISOString()} failed`;
  }

  /** cancel_abandoned_jobs: jobs waiting or blocked longer than the timeout are cancelled. */
  async cancelAbandonedJobs(): Promise<string> {
    const cutoff = new Date(Date.now() - this.deps.config.actions.abandonedJobTimeoutMs);
    const rows = await this.deps.db
      .select({ id: actionRunJobs.id })
      .from(actionRunJobs)
      .where(and(inArray(actionRunJobs.status, ['waiting', 'blocked']), lt(actionRunJobs.updatedAt, cutoff)));
    const n = await this.endJobs(rows.map((r) => r.id), 'cancelled');
    return `${n} job(s) waiting since before ${cutoff.toISOString()} cancelled`;
  }

  /**
   * start_schedule_tasks: each due schedule makes a run of its workflow as it was at the pushed commit, and
   * moves to its next moment in the same transaction (compare-and-set on `next`, so with several processes
   * each moment runs once). Files are read before the transaction.
   */
  async startScheduled(): Promise<string> {
    const { db, config } = this.deps;
    const now = new Date();
    const due = await db.select().from(actionSchedules).where(lte(actionSchedules.next, now)).orderBy(asc(actionSchedules.next)).limit(100);
    let made = 0;
    for (const s of due) {
      const following = nextOccurrence(s.cron, now) ?? new Date(8.64e15);
      const [row] = await db.select({ repo: repositories, owner: users }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(eq(repositories.id, s.repoId));
      const file = row && row.repo.hasActions && !row.repo.isArchived
        ? (await this.actions.workflowsAt(repoDir(config.dataDir, row.owner.name, row.repo.name), s.commitSha).catch(() => [])).find((f) => f.name === s.workflowId && f.dir === s.workflowDir && f.workflow)
        : undefined;
      const commit = file && row ? await readCommit(repoDir(config.dataDir, row.owner.name, row.repo.name), s.commitSha) : undefined;
      made += await withTx(db, async (tx) => {
        const moved = await tx.update(actionSchedules).set({ next: following }).where(and(eq(actionSchedules.id, s.id), eq(actionSchedules.next, s.next))).returning({ id: actionSchedules.id });
        if (moved.length === 0 || !file || !commit || !row) return 0;
        await this.actions.insertRuns(tx, row.repo, [{ file, jobs: planJobs(file.workflow!), event: 'schedule', ref: s.ref, actorId: s.triggerUserId, payload: { schedule: s.cron }, commit }]);
        return 1;
      });
    }
    return `${made} scheduled run(s) started`;
  }

  /** cleanup_actions: ended runs older than the retention go, with their jobs, tasks and log files; expired artifacts' files go. */
  async cleanup(): Promise<string> {
    const cutoff = new Date(Date.now() - this.deps.config.actions.retentionDays * 86_400_000);
    const old = and(inArray(actionRuns.status, ['success', 'failure', 'cancelled', 'skipped']), or(lt(actionRuns.stopped, cutoff), and(isNull(actionRuns.stopped), lt(actionRuns.updatedAt, cutoff))));
    let runs = 0;
    for (;;) {
      const batch = await this.deps.db.select({ id: actionRuns.id }).from(actionRuns).where(old).limit(500);
      if (batch.length === 0) break;
      const ids = batch.map((r) => r.id);
      const files = await this.deps.db
        .select({ file: actionTasks.logFile })
        .from(actionTasks)
        .innerJoin(actionRunJobs, eq(actionRunJobs.id, actionTasks.jobId))
        .where(and(inArray(actionRunJobs.runId, ids), isNotNull(actionTasks.logFile)));
      await this.deps.db.delete(actionRuns).where(inArray(actionRuns.id, ids));
      await this.logs.remove(files.map((f) => f.file));
      runs += ids.length;
    }
    // Artifacts past their retention lose their files (and deleted runs' folders go).
    const artifacts = await this.artifacts.expire();
    return `${runs} run(s) ended before ${cutoff.toISOString()} deleted with their logs; ${artifacts}`;
  }

  /** cleanup_offline_runners: runners not heard from within the timeout (and running nothing) go. */
  async cleanupOfflineRunners(): Promise<string> {
    const cutoff = new Date(Date.now() - this.deps.config.actions.offlineRunnerTimeoutMs);
    const gone = await this.deps.db
      .delete(actionRunners)
      .where(and(
        or(lt(actionRunners.lastOnline, cutoff), and(isNull(actionRunners.lastOnline), lt(actionRunners.createdAt, cutoff))),
        sql`not exists (select 1 from ${actionTasks} t where t.runner_id = ${actionRunners.id} and t.status = 'running')`,
      ))
      .returning({ id: actionRunners.id });
    return `${gone.length} runner(s) offline since before ${cutoff.toISOString()} deleted`;
  }
}
