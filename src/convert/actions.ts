// Actions runners, runs and jobs as the API shows them (Gitea 1.26's ActionRunner, ActionWorkflowRun and
// ActionWorkflowJob). States map to GitHub's status/conclusion pairs as Gitea maps them.
import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import { units } from '../db/schema/access.js';
import type { ActionState, ActionTaskStepRow, UserRow } from '../db/schema/index.js';
import type { RepoPermission } from '../permissions/repo.js';
import type { JobView, RunView, TaskView } from '../services/actions/queries.js';
import { runnerOnline, type RunnerView } from '../services/actions/runners.js';
import type { WorkflowView } from '../services/actions/repoActions.js';
import { zeroTime } from './cron.js';
import { escapePath, repoUrls, toRepository } from './repo.js';
import { iso } from './time.js';
import { toUser } from './user.js';

type Schemas = components['schemas'];
type Status = Schemas['ActionWorkflowJob']['status'];
type Conclusion = NonNullable<Schemas['ActionWorkflowJob']['conclusion']>;

/** Gitea's ToActionsStatus: an ended state is `completed` with the state as its conclusion. */
export function statusPair(s: ActionState): { status: Status; conclusion?: Conclusion } {
  switch (s) {
    case 'waiting': return { status: 'queued' };
    case 'blocked': return { status: 'pending' };
    case 'running': return { status: 'in_progress' };
    default: return { status: 'completed', conclusion: s };
  }
}

const time = (d: Date | null | undefined) => (d ? iso(d) : zeroTime);

export function toActionRunner({ runner, busy }: RunnerView): Schemas['ActionRunner'] {
  return {
    id: runner.id,
    name: runner.name,
    status: runnerOnline(runner) ? 'online' : 'offline',
    busy,
    disabled: runner.disabled,
    ephemeral: runner.ephemeral,
    labels: runner.labels.map((name, id) => ({ id, name, type: 'custom' as const })),
  };
}

const headBranch = (ref: string) => (ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined);

function toStep(s: ActionTaskStepRow): Schemas['ActionWorkflowStep'] {
  const { status, conclusion } = statusPair(s.status);
  return {
    name: s.name,
    number: s.index,
    status: status === 'pending' ? 'queued' : (status as Schemas['ActionWorkflowStep']['status']),
    ...(conclusion ? { conclusion } : {}),
    started_at: time(s.started),
    completed_at: time(s.stopped),
  };
}

export function toWorkflowJob(v: JobView, config: Config): Schemas['ActionWorkflowJob'] {
  const urls = repoUrls(config, v.owner.name, v.repo.name);
  const branch = headBranch(v.run.ref);
  return {
    id: v.job.id,
    url: `${urls.api}/actions/jobs/${v.job.id}`,
    html_url: `${urls.html}/actions/runs/${v.run.index}/jobs/${v.job.id}`,
    run_id: v.run.id,
    run_url: `${urls.api}/actions/runs/${v.run.id}`,
    name: v.job.name,
    labels: v.job.runsOn,
    run_attempt: v.job.attempt,
    head_sha: v.run.commitSha,
    ...(branch ? { head_branch: branch } : {}),
    ...statusPair(v.job.status),
    ...(v.runnerId ? { runner_id: v.runnerId } : {}),
    ...(v.runnerName ? { runner_name: v.runnerName } : {}),
    steps: v.steps.map(toStep),
    created_at: iso(v.job.createdAt),
    started_at: time(v.job.started),
    completed_at: time(v.job.stopped),
  };
}

/** The repository as Gitea shows it in a run: converted with no permission. */
const noPermission: RepoPermission = { mode: 'none', units: Object.fromEntries(units.map((u) => [u, 'none'])) as RepoPermission['units'] };

export function toWorkflowRun(v: RunView, viewer: UserRow | null, config: Config): Schemas['ActionWorkflowRun'] {
  const urls = repoUrls(config, v.owner.name, v.repo.name);
  const url = `${urls.api}/actions/runs/${v.run.id}`;
  const branch = headBranch(v.run.ref);
  const actor = v.actor ? toUser(v.actor, viewer, config) : undefined;
  return {
    id: v.run.id,
    url,
    html_url: `${urls.html}/actions/runs/${v.run.index}`,
    display_title: v.run.title,
    path: `${v.run.workflowId}@${v.run.ref}`,
    event: v.run.event,
    run_attempt: v.run.attempt,
    run_number: v.run.index,
    head_sha: v.run.commitSha,
    ...(branch ? { head_branch: branch } : {}),
    ...statusPair(v.run.status),
    ...(actor ? { actor, trigger_actor: actor } : {}),
    repository: toRepository(v.repo, v.owner, noPermission, viewer, config),
    started_at: time(v.run.started),
    completed_at: time(v.run.stopped),
    created_at: iso(v.run.createdAt),
    updated_at: iso(v.run.updatedAt),
    previous_attempt_url: null,
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    pull_requests: pullRequestsOf(v),
  };
}

type PullRef = { ref?: string; sha?: string; repo?: { id?: number; url?: string; name?: string } };

/** A pull_request run's pull request, from the event it was made for (Gitea's PullRequestMinimal). */
function pullRequestsOf(v: RunView): Schemas['PullRequestMinimal'][] {
  if (v.run.event !== 'pull_request') return [];
  const pr = (v.run.eventPayload as { pull_request?: { id?: number; number?: number; url?: string; head?: PullRef; base?: PullRef } }).pull_request;
  if (!pr?.id || !pr.number) return [];
  const side = (s: PullRef | undefined) => ({ ref: s?.ref ?? '', sha: s?.sha ?? '', repo: { id: s?.repo?.id ?? v.repo.id, url: s?.repo?.url ?? '', name: s?.repo?.name ?? v.repo.name } });
  return [{ id: pr.id, number: pr.number, url: pr.url ?? '', head: side(pr.head), base: side(pr.base) }];
}

export function toActionWorkflow(v: WorkflowView, owner: string, repo: string, config: Config): Schemas['ActionWorkflow'] {
  const urls = repoUrls(config, owner, repo);
  const path = `${v.file.dir}/${v.file.name}`;
  return {
    id: v.file.name,
    name: v.file.workflow?.name || v.file.name,
    path,
    state: v.disabled ? 'disabled_manually' : 'active',
    created_at: iso(v.commitDate),
    updated_at: iso(v.commitDate),
    url: `${urls.api}/actions/workflows/${encodeURIComponent(v.file.name)}`,
    html_url: `${urls.html}/src/branch/${escapePath(v.branch)}/${path}`,
    badge_url: `${urls.html}/actions/workflows/${encodeURIComponent(v.file.name)}/badge.svg`,
  };
}

/** The workflow of a run (the payload of workflow_run webhooks), from what the run recorded. */
export function toRunWorkflow(v: RunView, config: Config): Schemas['ActionWorkflow'] {
  const urls = repoUrls(config, v.owner.name, v.repo.name);
  const id = encodeURIComponent(v.run.workflowId);
  return {
    id: v.run.workflowId,
    name: v.run.workflowName,
    path: `${v.run.workflowDir}/${v.run.workflowId}`,
    state: 'active',
    created_at: iso(v.run.createdAt),
    updated_at: iso(v.run.updatedAt),
    url: `${urls.api}/actions/workflows/${id}`,
    html_url: `${urls.html}/actions?workflow=${id}`,
    badge_url: `${urls.html}/actions/workflows/${id}/badge.svg`,
  };
}

/** Gitea's ActionTask: one attempt of a job on a runner. */
export function toActionTask(v: TaskView, owner: string, repo: string, config: Config): Schemas['ActionTask'] {
  const urls = repoUrls(config, owner, repo);
  return {
    id: v.task.id,
    name: v.job.name,
    head_branch: headBranch(v.run.ref) ?? v.run.ref.replace(/^refs\/(tags|pull)\//, ''),
    head_sha: v.run.commitSha,
    run_number: v.run.index,
    event: v.run.event,
    display_title: v.run.title,
    status: v.task.status,
    workflow_id: v.run.workflowId,
    url: `${urls.html}/actions/runs/${v.run.index}/jobs/${v.job.id}`,
    created_at: iso(v.task.createdAt),
    updated_at: iso(v.task.updatedAt),
    run_started_at: time(v.task.started),
  };
}
