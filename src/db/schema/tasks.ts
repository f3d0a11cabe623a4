// Repository migrations run as tasks (#39; Gitea's `task` table, type migrate): one row per
// `POST /repos/migrate`, run in the background by the accepting process under a lease
// (services/repos/migrationTasks.ts), its progress in `message` while it runs and its error there when
// it failed. The options, credentials included, are kept sealed until the task ends.
import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { repositories } from './repos.js';
import { users } from './users.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Gitea's TaskStatus values (`structs.TaskStatus`), as its `/user/task/{id}` answers them. */
export const taskStatus = { queued: 0, running: 1, stopped: 2, failed: 3, finished: 4 } as const;
/** The domain error's kind a failed task ended with (`Invalid`, `Conflict`, ...; `internal` for any other), so the waiting request answers the status it would have. */
export type TaskFailure = string;

export const migrateTasks = pgTable(
  'migrate_tasks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    doerId: bigint('doer_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The repository's row (a placeholder being migrated, then the repository); null once a failed migration removed it. */
    repoId: bigint('repo_id', { mode: 'number' }).references(() => repositories.id, { onDelete: 'set null' }),
    repoName: text('repo_name').notNull(),
    status: integer('status').notNull().default(0),
    /** What the task does now ("Migrating Issues"), or why it failed. */
    message: text('message').notNull().default(''),
    failure: text('failure').$type<TaskFailure>().notNull().default(''),
    /** The migration's options as JSON, sealed (they may hold credentials); cleared when the task ends. */
    options: text('options'),
    /** The process running it and until when it is presumed alive (services/leases.ts); null once ended. */
    holder: text('holder').notNull().default(''),
    leaseUntil: ts('lease_until'),
    createdAt: ts('created_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    endedAt: ts('ended_at'),
  },
  (t) => [index('migrate_tasks_lease_idx').on(t.leaseUntil), index('migrate_tasks_repo_idx').on(t.repoId), index('migrate_tasks_doer_idx').on(t.doerId)],
);

export type MigrateTaskRow = typeof migrateTasks.$inferSelect;
