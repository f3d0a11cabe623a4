CREATE TABLE "issue_mentions" (
	"issue_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	CONSTRAINT "issue_mentions_issue_id_user_id_pk" PRIMARY KEY("issue_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "issue_watches" (
	"user_id" bigint NOT NULL,
	"issue_id" bigint NOT NULL,
	"is_watching" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issue_watches_user_id_issue_id_pk" PRIMARY KEY("user_id","issue_id")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"subject_type" text NOT NULL,
	"issue_id" bigint,
	"commit_id" text,
	"comment_id" bigint,
	"status" text DEFAULT 'unread' NOT NULL,
	"updated_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "repo_watches" (
	"user_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "repo_watches_user_id_repo_id_pk" PRIMARY KEY("user_id","repo_id")
);
--> statement-breakpoint
ALTER TABLE "issue_mentions" ADD CONSTRAINT "issue_mentions_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_mentions" ADD CONSTRAINT "issue_mentions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_watches" ADD CONSTRAINT "issue_watches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_watches" ADD CONSTRAINT "issue_watches_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repo_watches" ADD CONSTRAINT "repo_watches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repo_watches" ADD CONSTRAINT "repo_watches_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "issue_mentions_user_idx" ON "issue_mentions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "issue_watches_issue_idx" ON "issue_watches" USING btree ("issue_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_issue_key" ON "notifications" USING btree ("user_id","issue_id") WHERE issue_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_commit_key" ON "notifications" USING btree ("user_id","repo_id","commit_id") WHERE commit_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_repo_key" ON "notifications" USING btree ("user_id","repo_id") WHERE subject_type = 'Repository';--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "notifications_user_repo_idx" ON "notifications" USING btree ("user_id","repo_id","updated_at");--> statement-breakpoint
CREATE INDEX "repo_watches_repo_idx" ON "repo_watches" USING btree ("repo_id","user_id");--> statement-breakpoint
-- Repositories made before watching existed: their owner watches them when the owner is a user (an
-- organisation's repositories had no recorded creator).
INSERT INTO "repo_watches" ("user_id", "repo_id") SELECT r."owner_id", r."id" FROM "repositories" r JOIN "users" u ON u."id" = r."owner_id" WHERE u."type" = 'User' ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "repositories" r SET "num_watches" = (SELECT count(*) FROM "repo_watches" w WHERE w."repo_id" = r."id");
