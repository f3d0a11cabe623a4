CREATE TABLE "pull_mirrors" (
	"repo_id" bigint PRIMARY KEY NOT NULL,
	"remote_url" text NOT NULL,
	"credentials" text,
	"interval_seconds" bigint DEFAULT 28800 NOT NULL,
	"enable_prune" boolean DEFAULT true NOT NULL,
	"next_sync_at" timestamp with time zone,
	"claimed_until" timestamp with time zone,
	"last_sync_at" timestamp with time zone,
	"updated_at" timestamp with time zone,
	"last_error" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "repositories" ADD COLUMN "original_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "repositories" ADD COLUMN "original_service_type" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pull_mirrors" ADD CONSTRAINT "pull_mirrors_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pull_mirrors_next_idx" ON "pull_mirrors" USING btree ("next_sync_at");