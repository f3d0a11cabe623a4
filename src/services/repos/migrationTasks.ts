// The rows of migration tasks (#39; Gitea's `task` table): a task is created with its placeholder
// repository (`repositories.status` being migrated) in one transaction, run under a lease by the process
// that accepted it (MigrationService), and ends once: finished in the transaction that fills the
// placeholder, or failed — with its message — in the transaction that deletes the placeholder. Both
// are conditional on the runner still holding the task, so a task taken over after a lapsed lease is
// never ended twice.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { migrateTasks, repoStatus, repositories, taskStatus, type MigrateTaskRow } from '../../db/schema/index.js';
import {
  BadRequest, Conflict, DomainError, Forbidden, Invalid, NotAllowed, NotFound, PayloadTooLarge, PreconditionFailed, TooManyRequests,
} from '../errors.js';

/** Where a task's sealed options belong (secretBox's associated data): they open for no other task. */
export const optionsPlace = (task: { ownerId: number; repoId: number | null }) => ({ ownerId: task.ownerId, repoId: task.repoId ?? 0, name: 'migration-options' });

/** What a running migration does now: Gitea's texts (its `migrate.migrating_*` messages in English). */
export const progressText = {
  git: 'Migrating Git Data',
  labels: 'Migrating Labels',
  milestones: 'Migrating Milestones',
  issues: 'Migrating Issues',
  pulls: 'Migrating Pull Requests',
  releases: 'Migrating Releases',
} as const;

/** A task whose process died while it ran: what its row says. */
export const interruptedMessage = 'the migration was interrupted: the process running it stopped before it finished, and nothing of it was kept';

/** The row's end as a failure: the domain error's message and kind; any other error is an internal one (logged). */
export function failureOf(err: unknown): { failure: string; message: string } {
  if (err instanceof DomainError) return { failure: err.kind, message: err.message };
  return { failure: 'internal', message: 'the migration failed with an internal error' };
}

const kinds: Record<string, new (message: string) => DomainError> = {
  NotFound, Forbidden, BadRequest, Invalid, Conflict, PreconditionFailed, NotAllowed, PayloadTooLarge,
};

/**
 * The error a failed task answers its waiting request with: the same status the migration's error had; any
 * other failure (an internal one, a kind this version does not know) is the migration's own failure, a 422
 * with the row's message, never a 500.
 */
export function errorOf(task: MigrateTaskRow): DomainError {
  if (task.failure === 'TooManyRequests') return new TooManyRequests(task.message, 60);
  const Kind = Object.hasOwn(kinds, task.failure) ? kinds[task.failure] : undefined;
  return Kind ? new Kind(task.message) : new Invalid(task.message || 'the migration failed');
}

/** A task gone before its end (its doer deleted meanwhile): Gitea's ErrTaskDoesNotExist, a 404. */
export const taskGone = (id: number) => new NotFound(`task \`${id}\` does not exist`);

/** The task row, if it exists. */
export async function taskById(db: Db, id: number): Promise<MigrateTaskRow | undefined> {
  const [row] = await db.select().from(migrateTasks).where(eq(migrateTasks.id, id));
  return row;
}

/** The newest task of a repository (its migration while it is being migrated). */
export async function taskOfRepo(db: Db, repoId: number): Promise<MigrateTaskRow | undefined> {
  const [row] = await db.select().from(migrateTasks).where(eq(migrateTasks.repoId, repoId)).orderBy(desc(migrateTasks.id)).limit(1);
  return row;
}

/** The condition of every write of a runner: the task is still its own and not ended. */
export const heldBy = (id: number, holder: string) => and(eq(migrateTasks.id, id), eq(migrateTasks.holder, holder), eq(migrateTasks.status, taskStatus.running));

/**
 * Ends a task as failed, with its message, and removes its placeholder repository, in one transaction,
 * if `holder` still holds it; answers whether it did.
 */
export async function failTask(db: Db, task: MigrateTaskRow, holder: string, failure: { failure: string; message: string }): Promise<boolean> {
  return withTx(db, async (tx) => {
    const ended = await tx.update(migrateTasks).set({
      status: taskStatus.failed, message: failure.message, failure: failure.failure, endedAt: new Date(), leaseUntil: null, options: null,
    }).where(and(eq(migrateTasks.id, task.id), eq(migrateTasks.holder, holder), inArray(migrateTasks.status, [taskStatus.queued, taskStatus.running]))).returning({ id: migrateTasks.id });
    if (!ended.length) return false;
    if (task.repoId) {
      await tx.delete(repositories).where(and(eq(repositories.id, task.repoId), eq(repositories.status, repoStatus.beingMigrated)));
    }
    return true;
  });
}
