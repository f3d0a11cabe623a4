ALTER TABLE "repositories" ADD COLUMN "template_id" bigint;--> statement-breakpoint
ALTER TABLE "repositories" ADD COLUMN "avatar" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "repositories" ADD CONSTRAINT "repositories_template_id_repositories_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."repositories"("id") ON DELETE set null ON UPDATE no action;
