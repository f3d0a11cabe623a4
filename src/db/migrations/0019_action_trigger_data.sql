ALTER TABLE "action_triggers" ADD COLUMN "data" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "action_tasks_token_idx" ON "action_tasks" USING btree ("token_hash");