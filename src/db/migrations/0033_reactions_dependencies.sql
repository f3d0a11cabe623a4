CREATE TABLE "issue_dependencies" (
	"issue_id" bigint NOT NULL,
	"dependency_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issue_dependencies_issue_id_dependency_id_pk" PRIMARY KEY("issue_id","dependency_id")
);
--> statement-breakpoint
CREATE TABLE "reactions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"issue_id" bigint NOT NULL,
	"comment_id" bigint,
	"user_id" bigint NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "issue_dependencies" ADD CONSTRAINT "issue_dependencies_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_dependencies" ADD CONSTRAINT "issue_dependencies_dependency_id_issues_id_fk" FOREIGN KEY ("dependency_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "issue_dependencies_dependency_idx" ON "issue_dependencies" USING btree ("dependency_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reactions_issue_key" ON "reactions" USING btree ("issue_id","user_id","type") WHERE comment_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "reactions_comment_key" ON "reactions" USING btree ("comment_id","user_id","type") WHERE comment_id is not null;--> statement-breakpoint
CREATE INDEX "reactions_issue_idx" ON "reactions" USING btree ("issue_id","created_at");