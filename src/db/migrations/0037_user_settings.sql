ALTER TABLE "users" ADD COLUMN "theme" text DEFAULT 'gitea-auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "diff_view_style" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "keep_activity_private" boolean DEFAULT false NOT NULL;