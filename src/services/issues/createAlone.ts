// Creating a plain issue in one statement (#41): its number, the issue, the repository's counters, the
// `issues opened` event, its feed row and tally, and the repository owner's notification thread, written
// by data-modifying CTEs in the statement's one implicit transaction, so the repository's number counter
// is locked for that statement alone instead of from a transaction's first statement to its commit (32
// writers to one repository queued behind it).
//
// It stands in for IssueService.create's transaction only where that transaction would write nothing
// else: no assignee, label or milestone asked for by a writer, no reference to another issue and no
// mention in the text, and, decided by the statement itself, no fan-out with work to do but the feed
// row and the owner's thread (no hook of the repository, its owner or the system; no watcher of the
// repository but the poster and its owner) and no block of the poster by the repository's owner.
// When a condition does not hold, the statement writes nothing
// (not even the number: the counter's insert is what the guard stops) and the caller runs the usual
// transaction, which then does or refuses everything as before. Like recordEventsAlone, a repository
// where the statement found work for a fan-out is not tried this way again for a minute.
import { sql } from 'drizzle-orm';
import { activities, activityTallies, events, issueCounters, issues, repositories, userBlocks, type IssueRow, type UserRow } from '../../db/schema/index.js';
import { jsonColumn, rowsOf } from '../../db/raw.js';
import { rowFromJson } from '../../db/jsonRows.js';
import type { ServiceDeps } from '../context.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { writeActivity } from '../events/activity.js';
import { BusyRepos, eventRow, quietConditions } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import type { DomainEvent } from '../events/types.js';
import { newIssueThreads, onIssueEvent } from '../notifications/notifier.js';
import { makesReferences } from './crossRefs.js';

/** What IssueService.create takes; declared here, beside the statement that may write it alone. */
export interface CreateIssueInput {
  title: string;
  body?: string;
  assignees?: string[];
  milestoneId?: number;
  labelIds?: number[];
  closed?: boolean;
  dueDate?: string;
  ref?: string;
}

/** Repositories where the statement last found a fan-out with work to do: not tried again for a minute. */
const busy = new BusyRepos();

/**
 * The issue, created in one statement; undefined when this issue or this repository needs the
 * transaction (then nothing was written). The caller has checked the repository (archived, readable)
 * and the title; `writer`: whether the actor writes issues here (the rest of what it asks is ignored
 * otherwise, as in the transaction).
 */
export async function createIssueAlone(deps: ServiceDeps, loaded: LoadedRepo, actor: UserRow, input: CreateIssueInput, writer: boolean): Promise<IssueRow | undefined> {
  const { repo, owner } = loaded;
  if (busy.has(repo.id)) return undefined;
  // Assignees, labels and a milestone are a writer's (others' are ignored): each is more rows and events.
  if (writer && ((input.assignees ?? []).some((n) => n.trim()) || input.labelIds?.length || input.milestoneId)) return undefined;
  const title = input.title;
  const body = input.body ?? '';
  // References to other issues write their timelines (addCrossReferences): the transaction's work.
  if (makesReferences(deps, { plain: title, markdown: body })) return undefined;
  // The notifier's part: the owner's thread, written here; any other watcher needs the transaction.
  const threads = newIssueThreads(repo.id, repo.ownerId, actor.id, body);
  if (threads === false) return undefined;
  const dueDate = input.dueDate && writer ? new Date(input.dueDate) : null;
  if (dueDate && Number.isNaN(dueDate.getTime())) return undefined;
  // The event as the transaction records it (issueId and the feed's content are the new row's, below).
  const event: DomainEvent = {
    type: 'issues', action: 'opened', issueId: 0, ...inRepo(repo, actor.id),
    activity: { opType: 'create_issue', issueId: 0, content: '' },
  };
  // Every other fan-out must have nothing to do; the feed row (writeActivity) and the thread are written here.
  const others = quietConditions(deps, [event], [writeActivity, onIssueEvent]);
  if (!others) return undefined;
  const quiet = sql.join([...others, sql`(${threads.quiet})`], sql` and `);
  // refuseBlocked(actor, [owner]): someone the repository's owner blocked opens nothing there.
  const allowed = owner.id === actor.id
    ? sql`true`
    : sql`not exists (select 1 from ${userBlocks} b where b.blocker_id = ${owner.id}::bigint and b.blockee_id = ${actor.id}::bigint)`;
  const now = new Date().toISOString();
  const closed = !!input.closed;
  const row = eventRow(event);
  const { activity, ...data } = row.data as unknown as { activity: Record<string, unknown> } & Record<string, unknown>;
  const repoId = sql`${repo.id}::bigint`;
  const actorId = sql`${actor.id}::bigint`;
  const ownerId = sql`${repo.ownerId}::bigint`;
  const isPrivate = sql`${repo.isPrivate}::boolean`;
  // issueContent(index, title): the feed's `<index>|<title>`.
  const content = sql`("issue"."index"::text || '|' || "issue"."title")`;
  const [out] = rowsOf<Record<string, unknown>>(await deps.db.execute(sql`
    with "guard" as (select ${quiet} as "quiet", ${allowed} as "allowed"),
    "next_index" as (
      insert into ${issueCounters} (repo_id, last_index) select ${repoId}, 1 where (select "quiet" and "allowed" from "guard")
      on conflict (repo_id) do update set last_index = ${issueCounters}.last_index + 1 returning last_index
    ),
    "issue" as (
      insert into ${issues} (repo_id, index, poster_id, title, body, is_pull, is_closed, closed_at, ref, due_date, created_at, updated_at)
      select ${repoId}, "next_index"."last_index", ${actorId}, ${title}::text, ${body}::text, false, ${closed}::boolean,
        ${closed ? now : null}::timestamptz, ${input.ref ?? ''}::text, ${dueDate ? dueDate.toISOString() : null}::timestamptz,
        ${now}::timestamptz, ${now}::timestamptz
      from "next_index" returning *
    ),
    "shift" as (
      update ${repositories} set num_issues = num_issues + 1${closed ? sql`, num_closed_issues = num_closed_issues + 1` : sql``}
      where id = ${repoId} and exists (select 1 from "issue")
    ),
    "recorded" as (
      insert into ${events} (type, action, actor_id, repo_id, owner_id, is_private, data)
      select ${row.type}::text, ${row.action}::text, ${actorId}, ${repoId}, ${ownerId}, ${isPrivate},
        ${JSON.stringify(data)}::jsonb || jsonb_build_object('issueId', "issue"."id",
          'activity', ${JSON.stringify(activity)}::jsonb || jsonb_build_object('issueId', "issue"."id", 'content', ${content}))
      from "issue" returning id, created_at
    ),
    "feed_row" as (
      insert into ${activities} (event_id, op_type, act_user_id, repo_id, owner_id, issue_id, comment_id, ref_name, content, is_private, created_at)
      select "recorded"."id", 'create_issue', ${actorId}, ${repoId}, ${ownerId}, "issue"."id", null, '', ${content}, ${isPrivate}, "recorded"."created_at"
      from "recorded", "issue"
    ),
    "told" as (${threads.write}),
    "tally" as (
      insert into ${activityTallies} (owner_id, act_user_id, repo_id, n) select ${ownerId}, ${actorId}, ${repoId}, 1 from "recorded"
      on conflict (owner_id, act_user_id, repo_id) do update set n = ${activityTallies}.n + 1
    )
    select (select "quiet" from "guard") as "quiet", (select row_to_json("issue") from "issue") as "issue"`));
  const made = jsonColumn(out!.issue) as Record<string, unknown> | null;
  if (made) return rowFromJson(issues, made);
  if (jsonColumn(out!.quiet) !== true) {
    busy.mark(repo.id);
  }
  return undefined;
}
