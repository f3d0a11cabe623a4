CREATE TABLE "stars" (
	"user_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stars_user_id_repo_id_pk" PRIMARY KEY("user_id","repo_id")
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "releases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"repo_id" bigint NOT NULL,
	"publisher_id" bigint NOT NULL,
	"tag_name" text NOT NULL,
	"lower_tag_name" text NOT NULL,
	"target" text DEFAULT '' NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"sha1" text DEFAULT '' NOT NULL,
	"num_commits" integer DEFAULT 0 NOT NULL,
	"is_draft" boolean DEFAULT false NOT NULL,
	"is_prerelease" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "repositories" ADD COLUMN "fork_id" bigint;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "release_id" bigint;--> statement-breakpoint
ALTER TABLE "stars" ADD CONSTRAINT "stars_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stars" ADD CONSTRAINT "stars_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stars_repo_idx" ON "stars" USING btree ("repo_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "releases_repo_tag_key" ON "releases" USING btree ("repo_id","lower_tag_name");--> statement-breakpoint
CREATE INDEX "releases_repo_created_idx" ON "releases" USING btree ("repo_id","created_at","id");--> statement-breakpoint
ALTER TABLE "repositories" ADD CONSTRAINT "repositories_fork_id_repositories_id_fk" FOREIGN KEY ("fork_id") REFERENCES "public"."repositories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "repositories_fork_idx" ON "repositories" USING btree ("fork_id");--> statement-breakpoint
CREATE INDEX "attachments_release_idx" ON "attachments" USING btree ("release_id");