CREATE TABLE "cron_tasks" (
	"name" text PRIMARY KEY NOT NULL,
	"exec_times" bigint DEFAULT 0 NOT NULL,
	"skipped_times" bigint DEFAULT 0 NOT NULL,
	"planned_at" timestamp with time zone,
	"prev_at" timestamp with time zone,
	"last_status" text,
	"last_message" text DEFAULT '' NOT NULL,
	"last_duration_ms" integer
);
