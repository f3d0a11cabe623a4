CREATE TABLE "migrate_tasks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "migrate_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"doer_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"repo_id" bigint,
	"repo_name" text NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"failure" text DEFAULT '' NOT NULL,
	"options" text,
	"holder" text DEFAULT '' NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "repositories" ADD COLUMN "status" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "migrate_tasks" ADD CONSTRAINT "migrate_tasks_doer_id_users_id_fk" FOREIGN KEY ("doer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "migrate_tasks" ADD CONSTRAINT "migrate_tasks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "migrate_tasks" ADD CONSTRAINT "migrate_tasks_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "migrate_tasks_lease_idx" ON "migrate_tasks" USING btree ("lease_until");--> statement-breakpoint
CREATE INDEX "migrate_tasks_repo_idx" ON "migrate_tasks" USING btree ("repo_id");--> statement-breakpoint
CREATE INDEX "migrate_tasks_doer_idx" ON "migrate_tasks" USING btree ("doer_id");