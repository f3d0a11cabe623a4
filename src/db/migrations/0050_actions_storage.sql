CREATE TABLE "action_task_log_chunks" (
	"task_id" bigint NOT NULL,
	"first_row" bigint NOT NULL,
	"rows" integer NOT NULL,
	"content" text NOT NULL,
	CONSTRAINT "action_task_log_chunks_task_id_first_row_pk" PRIMARY KEY("task_id","first_row")
);
--> statement-breakpoint
ALTER TABLE "action_tasks" ADD COLUMN "log_transfer_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "action_task_log_chunks" ADD CONSTRAINT "action_task_log_chunks_task_id_action_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."action_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Logs and artifacts are named by their key in their storage (the same files, for the local folder).
UPDATE "action_tasks" SET "log_file" = regexp_replace("log_file", '^.*/actions_log/', '') WHERE "log_file" LIKE '%/actions_log/%';--> statement-breakpoint
UPDATE "action_artifacts" SET "storage_path" = regexp_replace("storage_path", '^actions_artifacts/', '') WHERE "storage_path" LIKE 'actions_artifacts/%';--> statement-breakpoint
UPDATE "action_artifact_files" SET "storage_path" = regexp_replace("storage_path", '^actions_artifacts/', '') WHERE "storage_path" LIKE 'actions_artifacts/%';
