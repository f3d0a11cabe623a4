CREATE TABLE "action_artifacts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_artifacts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"job_id" bigint NOT NULL,
	"name" text NOT NULL,
	"storage_path" text DEFAULT '' NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"hash" text DEFAULT '' NOT NULL,
	"version" bigint DEFAULT 4 NOT NULL,
	"status" text DEFAULT 'upload_pending' NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "action_artifacts" ADD CONSTRAINT "action_artifacts_run_id_action_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."action_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "action_artifacts_run_idx" ON "action_artifacts" USING btree ("run_id","name");--> statement-breakpoint
CREATE INDEX "action_artifacts_repo_idx" ON "action_artifacts" USING btree ("repo_id","id");--> statement-breakpoint
CREATE INDEX "action_artifacts_expiry_idx" ON "action_artifacts" USING btree ("status","expires_at");