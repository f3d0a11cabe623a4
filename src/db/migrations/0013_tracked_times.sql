CREATE TABLE "stopwatches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stopwatches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"issue_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracked_times" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tracked_times_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"issue_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"time" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stopwatches" ADD CONSTRAINT "stopwatches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stopwatches" ADD CONSTRAINT "stopwatches_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stopwatches" ADD CONSTRAINT "stopwatches_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracked_times" ADD CONSTRAINT "tracked_times_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracked_times" ADD CONSTRAINT "tracked_times_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stopwatches_user_key" ON "stopwatches" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "stopwatches_issue_idx" ON "stopwatches" USING btree ("issue_id");--> statement-breakpoint
CREATE INDEX "tracked_times_issue_idx" ON "tracked_times" USING btree ("issue_id","user_id");--> statement-breakpoint
CREATE INDEX "tracked_times_repo_idx" ON "tracked_times" USING btree ("repo_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tracked_times_user_idx" ON "tracked_times" USING btree ("user_id","created_at","id");