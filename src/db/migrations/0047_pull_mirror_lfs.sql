ALTER TABLE "pull_mirrors" ADD COLUMN "lfs" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pull_mirrors" ADD COLUMN "lfs_endpoint" text DEFAULT '' NOT NULL;