-- pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it; PGlite loads it at start (db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "code_index_files" (
	"repo_id" bigint NOT NULL,
	"path" text NOT NULL,
	"blob" text NOT NULL,
	"language" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	CONSTRAINT "code_index_files_repo_id_path_pk" PRIMARY KEY("repo_id","path")
);
--> statement-breakpoint
CREATE TABLE "code_index_repos" (
	"repo_id" bigint PRIMARY KEY NOT NULL,
	"indexed_commit" text DEFAULT '' NOT NULL,
	"wanted_at" timestamp with time zone,
	"leased_by" text,
	"lease_until" timestamp with time zone,
	"indexed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "code_index_files" ADD CONSTRAINT "code_index_files_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_index_repos" ADD CONSTRAINT "code_index_repos_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "code_index_files_content_trgm_idx" ON "code_index_files" USING gin ("content" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "code_index_repos_wanted_idx" ON "code_index_repos" USING btree ("wanted_at") WHERE wanted_at is not null;--> statement-breakpoint
CREATE INDEX "comments_body_trgm_idx" ON "comments" USING gin ("body" gin_trgm_ops) WHERE type = 'comment';--> statement-breakpoint
CREATE INDEX "issues_title_trgm_idx" ON "issues" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "issues_body_trgm_idx" ON "issues" USING gin ("body" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "issues_number_idx" ON "issues" USING btree ("index");--> statement-breakpoint
-- Every repository that exists now gets its first code index round.
INSERT INTO "code_index_repos" ("repo_id", "wanted_at") SELECT "id", now() FROM "repositories";
