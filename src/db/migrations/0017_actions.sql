CREATE TABLE "action_run_jobs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_run_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"job_id" text NOT NULL,
	"name" text NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"workflow_payload" text NOT NULL,
	"needs" text[] DEFAULT '{}'::text[] NOT NULL,
	"runs_on" text[] DEFAULT '{}'::text[] NOT NULL,
	"condition" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"task_id" bigint,
	"started" timestamp with time zone,
	"stopped" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "action_runner_tokens" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_runner_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token" text NOT NULL,
	"owner_id" bigint DEFAULT 0 NOT NULL,
	"repo_id" bigint DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "action_runners" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_runners_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"uuid" text NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"owner_id" bigint DEFAULT 0 NOT NULL,
	"repo_id" bigint DEFAULT 0 NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"labels" text[] DEFAULT '{}'::text[] NOT NULL,
	"ephemeral" boolean DEFAULT false NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"last_online" timestamp with time zone,
	"last_active" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "action_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"repo_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"workflow_id" text NOT NULL,
	"workflow_dir" text NOT NULL,
	"workflow_name" text NOT NULL,
	"title" text NOT NULL,
	"index" bigint NOT NULL,
	"trigger_user_id" bigint NOT NULL,
	"ref" text NOT NULL,
	"commit_sha" text NOT NULL,
	"commit" jsonb NOT NULL,
	"event" text NOT NULL,
	"event_payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"status" text NOT NULL,
	"started" timestamp with time zone,
	"stopped" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "action_task_steps" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_task_steps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"task_id" bigint NOT NULL,
	"index" integer NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"log_index" bigint DEFAULT 0 NOT NULL,
	"log_length" bigint DEFAULT 0 NOT NULL,
	"started" timestamp with time zone,
	"stopped" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "action_tasks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"job_id" bigint NOT NULL,
	"runner_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"status" text NOT NULL,
	"token_hash" text NOT NULL,
	"log_length" bigint DEFAULT 0 NOT NULL,
	"log_file" text NOT NULL,
	"log_compressed" boolean DEFAULT false NOT NULL,
	"outputs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"started" timestamp with time zone,
	"stopped" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "action_tasks_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "action_triggers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_triggers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"actor_id" bigint NOT NULL,
	"event" text NOT NULL,
	"ref" text NOT NULL,
	"before" text DEFAULT '' NOT NULL,
	"sha" text NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "action_run_jobs" ADD CONSTRAINT "action_run_jobs_run_id_action_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."action_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_runs" ADD CONSTRAINT "action_runs_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_task_steps" ADD CONSTRAINT "action_task_steps_task_id_action_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."action_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_tasks" ADD CONSTRAINT "action_tasks_job_id_action_run_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."action_run_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "action_run_jobs_run_idx" ON "action_run_jobs" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "action_run_jobs_status_idx" ON "action_run_jobs" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "action_runner_tokens_token_idx" ON "action_runner_tokens" USING btree ("token");--> statement-breakpoint
CREATE INDEX "action_runner_tokens_scope_idx" ON "action_runner_tokens" USING btree ("owner_id","repo_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "action_runners_uuid_idx" ON "action_runners" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "action_runners_scope_idx" ON "action_runners" USING btree ("owner_id","repo_id");--> statement-breakpoint
CREATE UNIQUE INDEX "action_runs_repo_index_idx" ON "action_runs" USING btree ("repo_id","index");--> statement-breakpoint
CREATE INDEX "action_runs_status_idx" ON "action_runs" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "action_runs_trigger_idx" ON "action_runs" USING btree ("trigger_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "action_task_steps_task_idx" ON "action_task_steps" USING btree ("task_id","index");--> statement-breakpoint
CREATE INDEX "action_tasks_job_idx" ON "action_tasks" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "action_tasks_runner_idx" ON "action_tasks" USING btree ("runner_id","status");