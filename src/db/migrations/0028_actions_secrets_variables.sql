CREATE TABLE "action_disabled_workflows" (
	"repo_id" bigint NOT NULL,
	"workflow_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "action_disabled_workflows_repo_id_workflow_id_pk" PRIMARY KEY("repo_id","workflow_id")
);
--> statement-breakpoint
CREATE TABLE "action_secrets" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_secrets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint DEFAULT 0 NOT NULL,
	"repo_id" bigint DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"data" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "action_variables" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_variables_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint DEFAULT 0 NOT NULL,
	"repo_id" bigint DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"data" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "action_runs" ADD COLUMN "is_fork_pull_request" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "action_runs" ADD COLUMN "need_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "action_runs" ADD COLUMN "approved_by" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "action_triggers" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "action_triggers" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "action_triggers" ADD COLUMN "error" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "action_disabled_workflows" ADD CONSTRAINT "action_disabled_workflows_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "action_secrets_scope_name_idx" ON "action_secrets" USING btree ("owner_id","repo_id","name");--> statement-breakpoint
CREATE INDEX "action_secrets_repo_idx" ON "action_secrets" USING btree ("repo_id");--> statement-breakpoint
CREATE UNIQUE INDEX "action_variables_scope_name_idx" ON "action_variables" USING btree ("owner_id","repo_id","name");--> statement-breakpoint
CREATE INDEX "action_variables_repo_idx" ON "action_variables" USING btree ("repo_id");--> statement-breakpoint
-- Secrets and variables go with the repository or account they belong to (no foreign key: their owner
-- column is 0 for a repository's and their repository column 0 for an account's).
CREATE OR REPLACE FUNCTION anvil_drop_repo_actions_settings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM action_secrets WHERE owner_id = 0 AND repo_id = OLD.id;
  DELETE FROM action_variables WHERE owner_id = 0 AND repo_id = OLD.id;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER anvil_repo_actions_settings AFTER DELETE ON repositories FOR EACH ROW EXECUTE FUNCTION anvil_drop_repo_actions_settings();--> statement-breakpoint
CREATE OR REPLACE FUNCTION anvil_drop_owner_actions_settings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM action_secrets WHERE repo_id = 0 AND owner_id = OLD.id;
  DELETE FROM action_variables WHERE repo_id = 0 AND owner_id = OLD.id;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER anvil_owner_actions_settings AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION anvil_drop_owner_actions_settings();
