CREATE TABLE "repo_stats" (
	"repo_id" bigint PRIMARY KEY NOT NULL,
	"commit" text DEFAULT '' NOT NULL,
	"wanted_at" timestamp with time zone,
	"leased_by" text,
	"lease_until" timestamp with time zone,
	"computed_at" timestamp with time zone,
	"rounds" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "repositories" ADD COLUMN "language" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "repo_stats" ADD CONSTRAINT "repo_stats_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "repo_stats_wanted_idx" ON "repo_stats" USING btree ("wanted_at") WHERE wanted_at is not null;
