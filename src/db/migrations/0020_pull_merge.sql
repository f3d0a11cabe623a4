CREATE TABLE "pull_auto_merges" (
	"pull_id" bigint PRIMARY KEY NOT NULL,
	"doer_id" bigint NOT NULL,
	"style" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"delete_branch_after_merge" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pull_requests" ADD COLUMN "merge_pending" jsonb;--> statement-breakpoint
ALTER TABLE "pull_auto_merges" ADD CONSTRAINT "pull_auto_merges_pull_id_pull_requests_id_fk" FOREIGN KEY ("pull_id") REFERENCES "public"."pull_requests"("id") ON DELETE cascade ON UPDATE no action;