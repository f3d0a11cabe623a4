ALTER TABLE "comments" ADD COLUMN "assignee_id" bigint;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "removed_assignee" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "old_milestone_id" bigint;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "milestone_id" bigint;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "time_id" bigint;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "dependent_issue_id" bigint;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "ref_issue_id" bigint;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "ref_comment_id" bigint;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "ref_action" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "commit_sha" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_dependent_issue_id_issues_id_fk" FOREIGN KEY ("dependent_issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_ref_issue_id_issues_id_fk" FOREIGN KEY ("ref_issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_ref_comment_id_comments_id_fk" FOREIGN KEY ("ref_comment_id") REFERENCES "public"."comments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comments_ref_issue_idx" ON "comments" USING btree ("ref_issue_id","ref_comment_id") WHERE ref_issue_id is not null;--> statement-breakpoint
CREATE INDEX "comments_dependent_issue_idx" ON "comments" USING btree ("dependent_issue_id") WHERE dependent_issue_id is not null;--> statement-breakpoint
CREATE INDEX "comments_ref_comment_idx" ON "comments" USING btree ("ref_comment_id") WHERE ref_comment_id is not null;