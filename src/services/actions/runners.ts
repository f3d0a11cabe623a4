// Runners: registration tokens, registration, and what a runner does over Gitea's runner protocol —
// declare its labels, take a job (one runner per job, however many poll at once), report its steps and
// result, and send its log. The transport (src/transport/actions.ts) maps these to protobuf messages.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { parse } from 'yaml';
import type { Db } from '../../db/client.js';
import {
  actionRunJobs, actionRunnerTokens, actionRunners, actionRuns, actionTaskSteps, actionTasks, repositories, users,
  type ActionRunnerRow, type ActionState, type ActionTaskRow,
} from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { ServiceDeps } from '../context.js';
import { Invalid, NotFound, Unauthorized } from '../errors.js';
import { bumpTasksVersion, isDone, lockRun, tasksVersion, type ActionService } from './runs.js';
import type { ActionSettingsService } from './settings.js';
import { issueRuntimeToken } from './runtimeToken.js';
import { stepName } from './workflow.js';
import { TaskLogs } from './taskLogs.js';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A runner is online when it was heard from within this long (Gitea: about a minute). */
export const onlineWindowMs = 60_000;

export interface StepReport {
  /** The step's position. */
  id: number;
  result?: ActionState;
  startedAt?: Date;
  stoppedAt?: Date;
  logIndex: number;
  logLength: number;
}

export interface TaskReport {
  id: number;
  /** Set when the task ended. */
  result?: ActionState;
  startedAt?: Date;
  stoppedAt?: Date;
  steps: StepReport[];
}

/** A job handed to a runner: what its Task message carries. */
export interface Assignment {
  id: number;
  workflowPayload: string;
  context: Record<string, unknown>;
  secrets: Record<string, string>;
  needs: Record<string, { result: ActionState; outputs: Record<string, string> }>;
  vars: Record<string, string>;
}

/** Whose runners: an organisation's or user's (ownerId), a repository's (repoId); 0/0 is the site's. */
export interface RunnerScope {
  ownerId: number;
  repoId: number;
}

export interface RunnerView {
  runner: ActionRunnerRow;
  busy: boolean;
}

/** Label list as a text[] literal for `<@` (drizzle would spread a JS array into a parameter list). */
const textArray = (items: string[]): SQL => (items.length ? sql`ARRAY[${sql.join(items.map((l) => sql`${l}`), sql`, `)}]::text[]` : sql`'{}'::text[]`);

function cleanLabels(labels: string[]): string[] {
  const out: string[] = [];
  for (const raw of labels) {
    // act_runner sends `name:schema:arg` (ubuntu-latest:docker://node:20); the name is what runs-on matches.
    const name = raw.split(':')[0]!.trim();
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

export class RunnerService {
  private readonly logs: TaskLogs;

  constructor(private readonly deps: ServiceDeps, private readonly actions: ActionService, private readonly settings: ActionSettingsService) {
    this.logs = new TaskLogs(deps);
  }

  // --- registration tokens and runners (the API) ------------------------------------------------

  /** The latest active token of a scope (0/0: global), made when there is none: repeated calls answer the same one. */
  async registrationToken({ ownerId, repoId }: RunnerScope = { ownerId: 0, repoId: 0 }): Promise<string> {
    return withTx(this.deps.db, async (tx) => {
      // Concurrent first calls make one token: they queue on the scope's lock.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`runner-token:${ownerId}:${repoId}`}, 0))`);
      const [latest] = await tx
        .select()
        .from(actionRunnerTokens)
        .where(and(eq(actionRunnerTokens.ownerId, ownerId), eq(actionRunnerTokens.repoId, repoId)))
        .orderBy(desc(actionRunnerTokens.id))
        .limit(1);
      if (latest?.isActive) return latest.token;
      const token = randomBytes(20).toString('hex');
      await tx.insert(actionRunnerTokens).values({ token, ownerId, repoId });
      return token;
    });
  }

  private async busyIds(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.deps.db
      .selectDistinct({ id: actionTasks.runnerId })
      .from(actionTasks)
      .where(and(inArray(actionTasks.runnerId, ids), eq(actionTasks.status, 'running')));
    return new Set(rows.map((r) => r.id));
  }

  async list(opts: { disabled?: boolean; scope?: RunnerScope; limit: number; offset: number }): Promise<{ rows: RunnerView[]; total: number }> {
    const where = and(
      opts.disabled === undefined ? undefined : eq(actionRunners.disabled, opts.disabled),
      opts.scope ? and(eq(actionRunners.ownerId, opts.scope.ownerId), eq(actionRunners.repoId, opts.scope.repoId)) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(actionRunners).where(where).orderBy(asc(actionRunners.id)).limit(opts.limit).offset(opts.offset),
      this.deps.db.select({ n: count() }).from(actionRunners).where(where),
    ]);
    const busy = await this.busyIds(rows.map((r) => r.id));
    return { rows: rows.map((runner) => ({ runner, busy: busy.has(runner.id) })), total: Number(total?.n ?? 0) };
  }

  /**
   * A runner by the path's id (a string in Gitea's API: anything but a positive number names none); with a
   * scope, only one of that scope's own runners.
   */
  async get(idText: string, scope?: RunnerScope): Promise<RunnerView> {
    const id = /^\d{1,15}$/.test(idText) ? Number(idText) : 0;
    const [runner] = id > 0 ? await this.deps.db.select().from(actionRunners).where(eq(actionRunners.id, id)) : [];
    if (!runner || (scope && (runner.ownerId !== scope.ownerId || runner.repoId !== scope.repoId))) throw new NotFound('Runner not found');
    return { runner, busy: (await this.busyIds([runner.id])).has(runner.id) };
  }

  async delete(idText: string, scope?: RunnerScope): Promise<void> {
    const { runner } = await this.get(idText, scope);
    await this.deps.db.delete(actionRunners).where(eq(actionRunners.id, runner.id));
  }

  async setDisabled(idText: string, disabled: boolean | null | undefined, scope?: RunnerScope): Promise<RunnerView> {
    const { runner } = await this.get(idText, scope);
    if (typeof disabled !== 'boolean') throw new Invalid('[Disabled]: Required');
    await withTx(this.deps.db, async (tx) => {
      await tx.update(actionRunners).set({ disabled, updatedAt: new Date() }).where(eq(actionRunners.id, runner.id));
      // Enabled again: its next poll must search, though no job became waiting since it last asked.
      if (!disabled) await bumpTasksVersion(tx);
    });
    return this.get(idText);
  }

  /**
   * The repository a running task's token reads (the token a runner's steps use to check the code out);
   * undefined for anything else. A task's token stops working when the task ends.
   */
  async taskRepo(token: string): Promise<number | undefined> {
    return (await this.taskAccess(token))?.repoId;
  }

  /**
   * What a running task's token may do through the REST API: write to its own repository, read only for
   * a pull request from a fork (Gitea's rights for the task token); undefined for anything else.
   */
  async taskAccess(token: string): Promise<{ repoId: number; write: boolean } | undefined> {
    if (!/^[0-9a-f]{40}$/i.test(token)) return undefined;
    const [row] = await this.deps.db
      .select({ repoId: actionRunJobs.repoId, fork: actionRuns.isForkPullRequest })
      .from(actionTasks)
      .innerJoin(actionRunJobs, eq(actionRunJobs.id, actionTasks.jobId))
      .innerJoin(actionRuns, eq(actionRuns.id, actionRunJobs.runId))
      .where(and(eq(actionTasks.tokenHash, hash(token.toLowerCase())), eq(actionTasks.status, 'running')));
    return row ? { repoId: row.repoId, write: !row.fork } : undefined;
  }

  // --- the runner protocol -----------------------------------------------------------------------

  async register(input: { token: string; name: string; version: string; labels: string[]; ephemeral: boolean }): Promise<{ runner: ActionRunnerRow; token: string }> {
    if (input.name.length > 255) throw new Invalid('runner name is longer than 255 characters');
    const [reg] = await this.deps.db.select().from(actionRunnerTokens).where(eq(actionRunnerTokens.token, input.token));
    if (!reg) throw new Unauthorized('runner registration token not found');
    if (!reg.isActive) throw new Unauthorized('runner registration token has been invalidated, please use the latest one');
    const token = randomBytes(20).toString('hex');
    const now = new Date();
    const [runner] = await this.deps.db
      .insert(actionRunners)
      .values({
        uuid: randomUUID(), name: input.name, tokenHash: hash(token), ownerId: reg.ownerId, repoId: reg.repoId, version: input.version,
        labels: cleanLabels(input.labels), ephemeral: input.ephemeral, lastOnline: now,
      })
      .returning();
    return { runner: runner!, token };
  }

  /** The runner a request's `x-runner-uuid`/`x-runner-token` name; its last-online time moves (at most every few seconds). */
  async authenticate(uuid: string, token: string): Promise<ActionRunnerRow> {
    const [runner] = uuid && token ? await this.deps.db.select().from(actionRunners).where(eq(actionRunners.uuid, uuid)) : [];
    if (!runner || runner.tokenHash !== hash(token)) throw new Unauthorized('unregistered runner');
    const now = new Date();
    if (!runner.lastOnline || now.getTime() - runner.lastOnline.getTime() > 5_000) {
      await this.deps.db.update(actionRunners).set({ lastOnline: now }).where(eq(actionRunners.id, runner.id));
      runner.lastOnline = now;
    }
    return runner;
  }

  async declare(runner: ActionRunnerRow, input: { version: string; labels: string[] }): Promise<ActionRunnerRow> {
    return withTx(this.deps.db, async (tx) => {
      const [row] = await tx
        .update(actionRunners)
        .set({ version: input.version, labels: cleanLabels(input.labels), updatedAt: new Date() })
        .where(eq(actionRunners.id, runner.id))
        .returning();
      // New labels may fit jobs already waiting: the next poll searches.
      await bumpTasksVersion(tx);
      return row!;
    });
  }

  /**
   * A waiting job for this runner, or none. Unchanged `tasksVersion` since the runner's last poll: no search.
   * The job is locked with SKIP LOCKED, so runners polling at once never get the same one.
   */
  async fetchTask(runner: ActionRunnerRow, seenVersion: number): Promise<{ task?: Assignment; version: number }> {
    const version = await tasksVersion(this.deps.db);
    if (runner.disabled || (seenVersion > 0 && seenVersion === version)) return { version };
    const token = randomBytes(20).toString('hex');
    const picked = await withTx(this.deps.db, async (tx) => {
      const scope = runner.repoId > 0 ? eq(actionRunJobs.repoId, runner.repoId) : runner.ownerId > 0 ? eq(actionRunJobs.ownerId, runner.ownerId) : undefined;
      const [job] = await tx
        .select()
        .from(actionRunJobs)
        .where(and(eq(actionRunJobs.status, 'waiting'), sql`${actionRunJobs.runsOn} <@ ${textArray(runner.labels)}`, scope))
        .orderBy(asc(actionRunJobs.updatedAt), asc(actionRunJobs.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!job) return undefined;
      // Never wait for the run's row while holding the job's (whoever holds the run may be waiting for
      // this job: a cancel, a settle). Busy: leave the job for the next poll.
      const [free] = await tx.select({ id: actionRuns.id }).from(actionRuns).where(eq(actionRuns.id, job.runId)).for('update', { skipLocked: true });
      if (!free) return 'busy' as const;
      const now = new Date();
      const [task] = await tx
        .insert(actionTasks)
        .values({ jobId: job.id, runnerId: runner.id, attempt: job.attempt + 1, status: 'running', tokenHash: hash(token), logFile: '', started: now })
        .returning();
      const [updatedJob] = await tx
        .update(actionRunJobs)
        .set({ status: 'running', taskId: task!.id, attempt: job.attempt + 1, started: now, updatedAt: now })
        .where(eq(actionRunJobs.id, job.id))
        .returning();
      const doc = parse(job.workflowPayload) as { jobs?: Record<string, { steps?: unknown[] }> };
      const steps = doc.jobs?.[job.jobId]?.steps ?? [];
      if (steps.length) await tx.insert(actionTaskSteps).values(steps.map((s, index) => ({ taskId: task!.id, index, name: stepName(s, index), status: 'waiting' as const })));
      await tx.update(actionRunners).set({ lastActive: now }).where(eq(actionRunners.id, runner.id));
      const { run } = await this.actions.settleRun(tx, job.runId);
      const [repoRow] = await tx.select({ repo: repositories, owner: users }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(eq(repositories.id, job.repoId));
      await this.actions.reportJobs(tx, repoRow!.repo, run, [updatedJob!]);
      const [actor] = await tx.select({ name: users.name }).from(users).where(eq(users.id, run.triggerUserId));
      const needed = job.needs.length
        ? await tx.select().from(actionRunJobs).where(and(eq(actionRunJobs.runId, run.id), inArray(actionRunJobs.jobId, job.needs)))
        : [];
      const neededTasks = needed.some((n) => n.taskId)
        ? await tx.select({ id: actionTasks.id, outputs: actionTasks.outputs }).from(actionTasks).where(inArray(actionTasks.id, needed.map((n) => n.taskId ?? 0)))
        : [];
      return { task: task!, job, run, repo: repoRow!.repo, owner: repoRow!.owner, actor: actor?.name ?? '', needed, neededTasks };
    });
    if (!picked) return { version };
    // Version 0 makes the runner search again at its next poll instead of waiting for a new version.
    if (picked === 'busy') return { version: 0 };
    const { task, job, run, repo, owner, actor, needed, neededTasks } = picked;
    const cfg = this.deps.config;
    // What the job may see: its token, the owner's and the repository's secrets (none for a fork's pull
    // request) and variables.
    const [secrets, vars, keys] = await Promise.all([this.settings.secretsForTask(run, token), this.settings.varsForTask(run), this.settings.keys()]);
    // The runtime token is a JWT signed for this task, as Gitea's (upload-artifact@v4 reads run and job from it).
    const runtimeToken = issueRuntimeToken(keys[0]!, hash(token), { taskId: task.id, runId: run.id, jobId: job.id }, cfg.actions.endlessTaskTimeoutMs + 3_600_000);
    const refName = run.ref.replace(/^refs\/(heads|tags|pull)\//, '');
    const pr = run.event === 'pull_request' ? (run.eventPayload as { pull_request?: { head?: { ref?: string }; base?: { ref?: string } } }).pull_request : undefined;
    const needs: Assignment['needs'] = {};
    for (const n of needed) {
      const outputs = neededTasks.find((t) => t.id === n.taskId)?.outputs ?? {};
      // A matrix need reports its worst result, as GitHub does.
      const prev = needs[n.jobId];
      needs[n.jobId] = { result: prev && prev.result !== 'success' ? prev.result : n.status, outputs: { ...prev?.outputs, ...outputs } };
    }
    return {
      version,
      task: {
        id: task.id,
        workflowPayload: job.workflowPayload,
        context: {
          event: run.eventPayload,
          event_name: run.event,
          ref: run.ref,
          ref_name: refName,
          ref_type: run.ref.startsWith('refs/tags/') ? 'tag' : 'branch',
          ref_protected: false,
          sha: run.commitSha,
          head_ref: pr?.head?.ref ?? '',
          base_ref: pr?.base?.ref ?? '',
          repository: `${owner.name}/${repo.name}`,
          repository_owner: owner.name,
          repositoryUrl: `${cfg.rootUrl}${owner.name}/${repo.name}.git`,
          actor,
          triggering_actor: actor,
          workflow: run.workflowName,
          workflow_ref: `${owner.name}/${repo.name}/${run.workflowDir}/${run.workflowId}@${run.ref}`,
          run_id: String(run.id),
          run_number: String(run.index),
          run_attempt: String(task.attempt),
          job: job.jobId,
          retention_days: '90',
          token,
          server_url: cfg.rootUrl.replace(/\/$/, ''),
          api_url: `${cfg.rootUrl}api/v1`,
          gitea_default_actions_url: cfg.actions.defaultActionsUrl,
          gitea_runtime_token: runtimeToken,
        },
        secrets,
        needs,
        vars,
      },
    };
  }

  /** The runner's task, locked after its run's row (the lock order of every change to a run). */
  private async ownTask(tx: Db, runner: ActionRunnerRow, taskId: number): Promise<ActionTaskRow> {
    const [found] = await tx
      .select({ runId: actionRunJobs.runId })
      .from(actionTasks)
      .innerJoin(actionRunJobs, eq(actionRunJobs.id, actionTasks.jobId))
      .where(and(eq(actionTasks.id, taskId), eq(actionTasks.runnerId, runner.id)));
    if (!found) throw new NotFound(`task ${taskId} not found`);
    await lockRun(tx, found.runId);
    const [task] = await tx.select().from(actionTasks).where(eq(actionTasks.id, taskId)).for('update');
    if (!task) throw new NotFound(`task ${taskId} not found`);
    return task;
  }

  /**
   * A runner's report: step states, outputs, and the task's result when it ended. The end of a task ends
   * its job, starts or skips the jobs that need it, and settles the run; each changed job gets its commit
   * status. A job cancelled meanwhile answers `cancelled`, which tells the runner to stop.
   */
  async updateTask(runner: ActionRunnerRow, report: TaskReport, outputs: Record<string, string>): Promise<{ result?: ActionState; sentOutputs: string[] }> {
    return withTx(this.deps.db, async (tx) => {
      const task = await this.ownTask(tx, runner, report.id);
      const [job] = await tx.select().from(actionRunJobs).where(eq(actionRunJobs.id, task.jobId)).for('update');
      const merged = { ...task.outputs };
      for (const [k, v] of Object.entries(outputs)) if (!(k in merged)) merged[k] = v;
      if (isDone(task.status)) return { result: task.status, sentOutputs: Object.keys(task.outputs) };
      const now = new Date();
      for (const s of report.steps) {
        await tx
          .update(actionTaskSteps)
          .set({
            status: s.result ?? (s.startedAt ? 'running' : 'waiting'),
            started: s.startedAt ?? null,
            stopped: s.result ? s.stoppedAt ?? now : null,
            logIndex: s.logIndex,
            logLength: s.logLength,
          })
          .where(and(eq(actionTaskSteps.taskId, task.id), eq(actionTaskSteps.index, s.id)));
      }
      const result: ActionState | undefined = job!.status === 'cancelled' ? 'cancelled' : report.result;
      await tx
        .update(actionTasks)
        .set({ outputs: merged, status: result ?? 'running', stopped: result ? report.stoppedAt ?? now : null, updatedAt: now })
        .where(eq(actionTasks.id, task.id));
      if (result && job!.status !== 'cancelled') {
        const [ended] = await tx
          .update(actionRunJobs)
          .set({ status: result, stopped: report.stoppedAt ?? now, updatedAt: now })
          .where(eq(actionRunJobs.id, job!.id))
          .returning();
        const { run, changed } = await this.actions.settleRun(tx, job!.runId);
        const [repo] = await tx.select().from(repositories).where(eq(repositories.id, run.repoId));
        await this.actions.reportJobs(tx, repo!, run, [ended!, ...changed]);
      }
      if (result) await tx.update(actionRunners).set({ lastActive: now }).where(eq(actionRunners.id, runner.id));
      return { result, sentOutputs: Object.keys(merged) };
    });
  }

  /**
   * Appends log rows starting at `index` (src/services/actions/taskLogs.ts: kept in the database while
   * the task runs). Rows already received are skipped; a gap (index past what was received) appends
   * nothing. Answers how many rows are now received. `noMore` moves the log into the actions_log storage.
   */
  async updateLog(runner: ActionRunnerRow, taskId: number, index: number, rows: Array<{ time?: Date; content: string }>, noMore: boolean): Promise<number> {
    const [task] = await this.deps.db.select().from(actionTasks).where(and(eq(actionTasks.id, taskId), eq(actionTasks.runnerId, runner.id)));
    if (!task) throw new NotFound(`task ${taskId} not found`);
    const ack = await this.logs.append(task, index, rows);
    if (noMore) await this.logs.transfer(task.id);
    return ack;
  }
}

/** Gitea's runner `status`: online when heard from within the window. */
export const runnerOnline = (r: ActionRunnerRow, now = Date.now()) => !!r.lastOnline && now - r.lastOnline.getTime() < onlineWindowMs;

