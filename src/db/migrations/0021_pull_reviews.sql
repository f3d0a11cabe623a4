CREATE TABLE "pull_review_comments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pull_review_comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"review_id" bigint NOT NULL,
	"issue_id" bigint NOT NULL,
	"poster_id" bigint NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"path" text NOT NULL,
	"line" integer DEFAULT 0 NOT NULL,
	"commit_id" text DEFAULT '' NOT NULL,
	"diff_hunk" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pull_reviews" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pull_reviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"issue_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"reviewer_id" bigint DEFAULT 0 NOT NULL,
	"team_id" bigint DEFAULT 0 NOT NULL,
	"type" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"commit_id" text DEFAULT '' NOT NULL,
	"official" boolean DEFAULT false NOT NULL,
	"dismissed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pull_review_comments" ADD CONSTRAINT "pull_review_comments_review_id_pull_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."pull_reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pull_reviews" ADD CONSTRAINT "pull_reviews_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pull_review_comments_review_idx" ON "pull_review_comments" USING btree ("review_id");--> statement-breakpoint
CREATE INDEX "pull_reviews_issue_idx" ON "pull_reviews" USING btree ("issue_id","reviewer_id");