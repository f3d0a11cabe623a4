DROP INDEX "issues_repo_list_idx";--> statement-breakpoint
CREATE INDEX "issues_repo_all_idx" ON "issues" USING btree ("repo_id","is_pull","created_at","id");--> statement-breakpoint
CREATE INDEX "issues_repo_list_idx" ON "issues" USING btree ("repo_id","is_pull","is_closed","created_at","id");