CREATE TABLE "commit_status_indexes" (
	"repo_id" bigint NOT NULL,
	"sha" text NOT NULL,
	"max_index" bigint NOT NULL,
	CONSTRAINT "commit_status_indexes_repo_id_sha_pk" PRIMARY KEY("repo_id","sha")
);
--> statement-breakpoint
CREATE TABLE "commit_statuses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "commit_statuses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"repo_id" bigint NOT NULL,
	"sha" text NOT NULL,
	"index" bigint NOT NULL,
	"state" text NOT NULL,
	"target_url" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"context" text DEFAULT '' NOT NULL,
	"creator_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "commit_status_indexes" ADD CONSTRAINT "commit_status_indexes_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commit_statuses" ADD CONSTRAINT "commit_statuses_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "commit_statuses_repo_sha_index_idx" ON "commit_statuses" USING btree ("repo_id","sha","index");--> statement-breakpoint
CREATE INDEX "commit_statuses_context_idx" ON "commit_statuses" USING btree ("repo_id","sha","context","index");--> statement-breakpoint
CREATE INDEX "commit_statuses_created_idx" ON "commit_statuses" USING btree ("repo_id","sha","created_at");