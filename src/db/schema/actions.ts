// Actions: workflow runs made from pushes, their jobs, the runners that take them and the tasks (one
// attempt of a job on one runner) they report back. A push records an action trigger in its own
// transaction; the trigger worker reads the workflow files at the pushed commit and turns it into runs
// and jobs, so a crash between the push and the run loses nothing.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

/** Gitea's run, job, task and step states (its ActionStatus names). */
export const actionStates = ['waiting', 'blocked', 'running', 'success', 'failure', 'cancelled', 'skipped'] as const;
export type ActionState = (typeof actionStates)[number];

/**
 * A registration token: global (owner and repository 0), an owner's (user or organisation) or a
 * repository's. The latest active one of a scope is handed out again until it is deactivated.
 */
export const actionRunnerTokens = pgTable(
  'action_runner_tokens',
  {
    id: id(),
    token: text('token').notNull(),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull().default(0),
    repoId: bigint('repo_id', { mode: 'number' }).notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('action_runner_tokens_token_idx').on(t.token), index('action_runner_tokens_scope_idx').on(t.ownerId, t.repoId, t.id)],
);

export const actionRunners = pgTable(
  'action_runners',
  {
    id: id(),
    uuid: text('uuid').notNull(),
    name: text('name').notNull(),
    /** sha256 of the runner's token (the token itself is shown once, at registration). */
    tokenHash: text('token_hash').notNull(),
    /** The scope of the token it registered with: 0/0 is a global runner. */
    ownerId: bigint('owner_id', { mode: 'number' }).notNull().default(0),
    repoId: bigint('repo_id', { mode: 'number' }).notNull().default(0),
    version: text('version').notNull().default(''),
    labels: text('labels').array().notNull().default(sql`'{}'::text[]`),
    ephemeral: boolean('ephemeral').notNull().default(false),
    disabled: boolean('disabled').notNull().default(false),
    lastOnline: ts('last_online'),
    /** Last time it took or reported a task. */
    lastActive: ts('last_active'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('action_runners_uuid_idx').on(t.uuid), index('action_runners_scope_idx').on(t.ownerId, t.repoId)],
);

export type ActionRunnerRow = typeof actionRunners.$inferSelect;

/**
 * A change that may start workflows (a pushed branch or tag), queued in the change's own transaction.
 * The trigger worker claims it with a lease, reads the workflows at `sha` and writes the runs.
 */
export interface TriggerData {
  action?: 'opened' | 'reopened' | 'synchronize';
  index?: number;
  baseBranch?: string;
  headBranch?: string;
  mergeBase?: string;
  /** The pull request's head is in another repository (a fork). */
  isFork?: boolean;
}

export const actionTriggers = pgTable('action_triggers', {
  id: id(),
  /** The recorded event (its payload becomes the workflow's github.event). */
  eventId: bigint('event_id', { mode: 'number' }).notNull(),
  repoId: bigint('repo_id', { mode: 'number' }).notNull(),
  actorId: bigint('actor_id', { mode: 'number' }).notNull(),
  /** push or pull_request. */
  event: text('event').notNull(),
  /** For a pull request: its action (opened, reopened, synchronize), index, base and head branches and merge base. */
  data: jsonb('data').$type<TriggerData>().notNull().default({}),
  /** The full ref name. */
  ref: text('ref').notNull(),
  before: text('before').notNull().default(''),
  sha: text('sha').notNull(),
  leaseUntil: ts('lease_until'),
  /** Failed attempts to turn it into runs; past the limit it is kept as failed (`failedAt`, `error`) and never claimed again. */
  attempts: integer('attempts').notNull().default(0),
  failedAt: ts('failed_at'),
  error: text('error').notNull().default(''),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export type ActionTriggerRow = typeof actionTriggers.$inferSelect;

export const actionRuns = pgTable(
  'action_runs',
  {
    id: id(),
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    /** The workflow's file name (`build.yml`). */
    workflowId: text('workflow_id').notNull(),
    /** The folder it was read from (`.gitea/workflows`). */
    workflowDir: text('workflow_dir').notNull(),
    /** The workflow's `name:`, else its file name: the first part of its commit status contexts. */
    workflowName: text('workflow_name').notNull(),
    title: text('title').notNull(),
    /** The run number: 1, 2, 3, ... per repository. */
    index: bigint('index', { mode: 'number' }).notNull(),
    triggerUserId: bigint('trigger_user_id', { mode: 'number' }).notNull(),
    ref: text('ref').notNull(),
    commitSha: text('commit_sha').notNull(),
    /** The commit as read when the run was made (its statuses' webhooks show it; no git inside a transaction). */
    commit: jsonb('commit').$type<Record<string, unknown>>().notNull(),
    event: text('event').notNull(),
    eventPayload: jsonb('event_payload').$type<Record<string, unknown>>().notNull().default({}),
    attempt: integer('attempt').notNull().default(1),
    status: text('status').$type<ActionState>().notNull(),
    /** A pull request's run whose head is in another repository (a fork): its tasks get no secrets. */
    isForkPullRequest: boolean('is_fork_pull_request').notNull().default(false),
    /** Waiting for a writer's approval (Gitea's rule for first-time fork contributors); its jobs stay blocked. */
    needApproval: boolean('need_approval').notNull().default(false),
    /** Who approved it (0: nobody). */
    approvedBy: bigint('approved_by', { mode: 'number' }).notNull().default(0),
    started: ts('started'),
    stopped: ts('stopped'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('action_runs_repo_index_idx').on(t.repoId, t.index),
    index('action_runs_status_idx').on(t.status, t.id),
    index('action_runs_trigger_idx').on(t.triggerUserId),
  ],
);

export type ActionRunRow = typeof actionRuns.$inferSelect;

export const actionRunJobs = pgTable(
  'action_run_jobs',
  {
    id: id(),
    runId: bigint('run_id', { mode: 'number' })
      .notNull()
      .references(() => actionRuns.id, { onDelete: 'cascade' }),
    repoId: bigint('repo_id', { mode: 'number' }).notNull(),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    /** The job's key in the workflow (`build`); matrix combinations share it. */
    jobId: text('job_id').notNull(),
    /** The display name (`build (ubuntu, 20)`). */
    name: text('name').notNull(),
    attempt: integer('attempt').notNull().default(0),
    /** The workflow reduced to this job (and this matrix combination): what the runner executes. */
    workflowPayload: text('workflow_payload').notNull(),
    /** Job keys this job waits for. */
    needs: text('needs').array().notNull().default(sql`'{}'::text[]`),
    /** `runs-on`: a runner must have every one of these labels. */
    runsOn: text('runs_on').array().notNull().default(sql`'{}'::text[]`),
    /** The job's `if:` when it is one of always(), success(), failure(), cancelled(); '' otherwise. */
    condition: text('condition').notNull().default(''),
    status: text('status').$type<ActionState>().notNull(),
    /** The current task (attempt on a runner), if one was taken. */
    taskId: bigint('task_id', { mode: 'number' }),
    started: ts('started'),
    stopped: ts('stopped'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('action_run_jobs_run_idx').on(t.runId, t.id), index('action_run_jobs_status_idx').on(t.status, t.id)],
);

export type ActionRunJobRow = typeof actionRunJobs.$inferSelect;

export const actionTasks = pgTable(
  'action_tasks',
  {
    id: id(),
    jobId: bigint('job_id', { mode: 'number' })
      .notNull()
      .references(() => actionRunJobs.id, { onDelete: 'cascade' }),
    runnerId: bigint('runner_id', { mode: 'number' }).notNull(),
    attempt: integer('attempt').notNull(),
    status: text('status').$type<ActionState>().notNull(),
    /** sha256 of the token the task's steps use against the API (given to the runner in the context). */
    tokenHash: text('token_hash').notNull(),
    /** Log rows received (the next UpdateLog starts here). */
    logLength: bigint('log_length', { mode: 'number' }).notNull().default(0),
    /**
     * The log's key in the actions_log storage (`<repo id>/<task id>.log.gz`) once it is there
     * (`logCompressed`); '' while the task runs and its rows are in action_task_log_chunks. (A row of an
     * older anvil may name `<repo id>/<task id>.log`, an uncompressed file under $DATA_DIR/actions_log.)
     */
    logFile: text('log_file').notNull(),
    /** The log is in storage, gzip'ed, and takes no more rows. */
    logCompressed: boolean('log_compressed').notNull().default(false),
    /** While one process moves the log into storage: the end of its claim (another may take it after). */
    logTransferUntil: ts('log_transfer_until'),
    outputs: jsonb('outputs').$type<Record<string, string>>().notNull().default({}),
    started: ts('started'),
    stopped: ts('stopped'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('action_tasks_job_idx').on(t.jobId), index('action_tasks_runner_idx').on(t.runnerId, t.status), index('action_tasks_token_idx').on(t.tokenHash)],
);

export type ActionTaskRow = typeof actionTasks.$inferSelect;

/**
 * A running task's log, as the runner sends it (Gitea keeps it in DBFS): one row per accepted UpdateLog,
 * its lines (`<RFC 3339 time> <text>\n` each) from row `firstRow` on. Moved into the actions_log storage,
 * gzip'ed, when the runner says no more (or the task is ended for it), then deleted.
 */
export const actionTaskLogChunks = pgTable(
  'action_task_log_chunks',
  {
    taskId: bigint('task_id', { mode: 'number' })
      .notNull()
      .references(() => actionTasks.id, { onDelete: 'cascade' }),
    firstRow: bigint('first_row', { mode: 'number' }).notNull(),
    rows: integer('rows').notNull(),
    content: text('content').notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.firstRow] })],
);

export const actionTaskSteps = pgTable(
  'action_task_steps',
  {
    id: id(),
    taskId: bigint('task_id', { mode: 'number' })
      .notNull()
      .references(() => actionTasks.id, { onDelete: 'cascade' }),
    /** 0-based position in the job's steps. */
    index: integer('index').notNull(),
    name: text('name').notNull(),
    status: text('status').$type<ActionState>().notNull(),
    logIndex: bigint('log_index', { mode: 'number' }).notNull().default(0),
    logLength: bigint('log_length', { mode: 'number' }).notNull().default(0),
    started: ts('started'),
    stopped: ts('stopped'),
  },
  (t) => [uniqueIndex('action_task_steps_task_idx').on(t.taskId, t.index)],
);

export type ActionTaskStepRow = typeof actionTaskSteps.$inferSelect;

/** One row: bumped whenever a job becomes runnable, so idle runners polling with the same version get an answer without a search. */
export const actionTasksVersion = pgTable('action_tasks_version', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

/**
 * A workflow's `on: schedule` cron entry, as the default branch last had it: replaced by every push to the
 * default branch. `start_schedule_tasks` makes a run of each due entry at `commitSha` and moves `next`.
 */
export const actionSchedules = pgTable(
  'action_schedules',
  {
    id: id(),
    repoId: bigint('repo_id', { mode: 'number' })
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    workflowId: text('workflow_id').notNull(),
    workflowDir: text('workflow_dir').notNull(),
    /** The cron expression (5 fields, UTC, as GitHub reads them). */
    cron: text('cron').notNull(),
    ref: text('ref').notNull(),
    commitSha: text('commit_sha').notNull(),
    triggerUserId: bigint('trigger_user_id', { mode: 'number' }).notNull(),
    next: ts('next').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('action_schedules_next_idx').on(t.next), index('action_schedules_repo_idx').on(t.repoId)],
);

export type ActionScheduleRow = typeof actionSchedules.$inferSelect;
