DROP INDEX "reactions_issue_key";--> statement-breakpoint
DROP INDEX "reactions_comment_key";--> statement-breakpoint
ALTER TABLE "reactions" ADD COLUMN "original_author" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "reactions" ADD COLUMN "original_author_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pull_mirrors" ADD COLUMN "pending_refs" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "reactions_issue_key" ON "reactions" USING btree ("issue_id","user_id","type","original_author") WHERE comment_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "reactions_comment_key" ON "reactions" USING btree ("comment_id","user_id","type","original_author") WHERE comment_id is not null;