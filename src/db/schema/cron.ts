// What the cron tasks have done, shared by every process on the database: how often each ran, when it
// last ran and with what result. Schedules live in the configuration, so `next` is computed, not stored.
import { bigint, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const cronRunStatuses = ['ok', 'failed'] as const;
export type CronRunStatus = (typeof cronRunStatuses)[number];

export const cronTasks = pgTable('cron_tasks', {
  name: text('name').primaryKey(),
  /** Runs that did their work (scheduled or asked for), in every process. */
  execTimes: bigint('exec_times', { mode: 'number' }).notNull().default(0),
  /** Runs that found the task already running somewhere and did nothing. */
  skippedTimes: bigint('skipped_times', { mode: 'number' }).notNull().default(0),
  /** The latest scheduled moment a process claimed: each moment runs once, whichever process is first. */
  plannedAt: ts('planned_at'),
  /** When the last run started. */
  prevAt: ts('prev_at'),
  lastStatus: text('last_status').$type<CronRunStatus>(),
  lastMessage: text('last_message').notNull().default(''),
  lastDurationMs: integer('last_duration_ms'),
});

export type CronTaskRow = typeof cronTasks.$inferSelect;
