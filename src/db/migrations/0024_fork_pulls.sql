ALTER TABLE "pull_requests" ADD COLUMN "head_repo_id" bigint;--> statement-breakpoint
UPDATE "pull_requests" SET "head_repo_id" = "repo_id";--> statement-breakpoint
ALTER TABLE "pull_requests" ALTER COLUMN "head_repo_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "pull_requests_head_idx" ON "pull_requests" USING btree ("head_repo_id","head_branch");
