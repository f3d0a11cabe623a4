// The activity-feed fan-out: an event that carries `activity` becomes one feed row, in its transaction.
import type { Db } from '../../db/client.js';
import { activities } from '../../db/schema/index.js';
import { addFanOut } from './record.js';
import type { RecordedEvent } from './types.js';

export async function writeActivity(tx: Db, event: RecordedEvent): Promise<void> {
  const a = event.activity;
  if (!a) return;
  await tx.insert(activities).values({
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
}

addFanOut(writeActivity);
