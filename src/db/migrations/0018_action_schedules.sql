CREATE TABLE "action_schedules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_schedules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"repo_id" bigint NOT NULL,
	"workflow_id" text NOT NULL,
	"workflow_dir" text NOT NULL,
	"cron" text NOT NULL,
	"ref" text NOT NULL,
	"commit_sha" text NOT NULL,
	"trigger_user_id" bigint NOT NULL,
	"next" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "action_schedules" ADD CONSTRAINT "action_schedules_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "action_schedules_next_idx" ON "action_schedules" USING btree ("next");--> statement-breakpoint
CREATE INDEX "action_schedules_repo_idx" ON "action_schedules" USING btree ("repo_id");