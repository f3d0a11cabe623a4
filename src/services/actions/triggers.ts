// Changes that may start workflows: every pushed branch or tag (except a commit without workflow files,
// see workflowFiles.ts, unless it is pushed to the default branch of a repository with schedules to
// drop), and a pull request opened, reopened or
// synchronized (its head branch moved), queue a trigger in the change's own transaction (DESIGN §6:
// follow-up work reacts to recorded events). The trigger worker (jobs/actionTriggers.ts) reads the
// workflows at the commit and writes the runs.
import { EventEmitter } from 'node:events';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { actionSchedules, actionTriggers, issues, pullRequests, type TriggerData } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { addFanOut } from '../events/record.js';
import type { DomainEvent, RecordedEvent } from '../events/types.js';

/** Emitted after a trigger row is written (in-process wake-up for the worker; the poll covers other processes). */
export const triggerQueued = new EventEmitter();

async function pullTrigger(tx: Db, e: RecordedEvent & { issueId: number }, action: NonNullable<TriggerData['action']>): Promise<void> {
  const [row] = await tx
    .select({ pull: pullRequests, index: issues.index })
    .from(pullRequests)
    .innerJoin(issues, eq(issues.id, pullRequests.issueId))
    .where(eq(pullRequests.issueId, e.issueId));
  if (!row || !row.pull.headSha) return;
  const { pull, index } = row;
  await tx.insert(actionTriggers).values({
    eventId: e.id, repoId: e.repoId!, actorId: e.actorId, event: 'pull_request', ref: `refs/pull/${index}/head`, before: '', sha: pull.headSha,
    data: { action, index, baseBranch: pull.baseBranch, headBranch: pull.headBranch, mergeBase: pull.mergeBase, isFork: pull.headRepoId !== e.repoId },
  });
  triggerQueued.emit('queued');
}

async function queueTrigger(tx: Db, e: RecordedEvent, deps: ServiceDeps): Promise<void> {
  if (!deps.config.actions.enabled || e.repoId === undefined) return;
  if (e.type === 'pull_request' && (e.action === 'opened' || e.action === 'reopened')) return pullTrigger(tx, e, e.action);
  if (e.type === 'pull_request_sync') return pullTrigger(tx, e, 'synchronize');
  if (e.type !== 'push' || /^0+$/.test(e.after) || e.noWorkflows === 'branch') return;
  // The default branch without workflows: its trigger would only drop the schedules, if there are any.
  if (e.noWorkflows === 'default' && !(await tx.select({ id: actionSchedules.id }).from(actionSchedules).where(eq(actionSchedules.repoId, e.repoId)).limit(1)).length) return;
  if (!e.ref.startsWith('refs/heads/') && !e.ref.startsWith('refs/tags/')) return;
  await tx.insert(actionTriggers).values({ eventId: e.id, repoId: e.repoId, actorId: e.actorId, event: 'push', ref: e.ref, before: e.before, sha: e.after });
  triggerQueued.emit('queued');
}

/** Quiet for events queueTrigger returns early on without a query: no pull request event, no push that could start a run. */
function startsNothing(list: DomainEvent[], deps: ServiceDeps): boolean {
  if (!deps.config.actions.enabled) return true;
  return list.every((e) => e.repoId === undefined || (e.type !== 'pull_request' && e.type !== 'pull_request_sync'
    && (e.type !== 'push' || /^0+$/.test(e.after) || e.noWorkflows === 'branch')));
}

addFanOut(queueTrigger, { quiet: startsNothing });
