// The activity-feed fan-out: an event that carries `activity` becomes one feed row, in its transaction,
// and bumps its (owner, actor, repository) tally, which the feeds' totals add up.
import type { Db } from '../../db/client.js';
import { sql } from 'drizzle-orm';
import { activities, activityTallies } from '../../db/schema/index.js';
import { addFanOut } from './record.js';
import type { RecordedEvent } from './types.js';

export async function writeActivity(tx: Db, event: RecordedEvent): Promise<void> {
  const a = event.activity;
  if (!a) return;
  const row = tx.insert(activities).values({
    eventId: event.id,
    opType: a.opType,
    actUserId: event.actorId,
    repoId: event.repoId ?? null,
    ownerId: event.ownerId ?? null,
    issueId: a.issueId ?? null,
    commentId: a.commentId ?? null,
    refName: a.refName ?? '',
    content: a.content ?? '',
    isPrivate: event.isPrivate,
    createdAt: event.createdAt,
  });
  if (event.repoId == null) {
    await row;
    return;
  }
  // The row and its tally in one statement (a data-modifying CTE runs whether or not it is read).
  const feedRow = tx.$with('feed_row', {}).as(row.getSQL());
  await tx.with(feedRow).insert(activityTallies)
    .values({ ownerId: event.ownerId ?? 0, actUserId: event.actorId, repoId: event.repoId, n: 1 })
    .onConflictDoUpdate({ target: [activityTallies.ownerId, activityTallies.actUserId, activityTallies.repoId], set: { n: sql`${activityTallies.n} + 1` } });
}

addFanOut(writeActivity, { quiet: (list) => list.every((e) => !e.activity) });
