CREATE TABLE "activities" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" bigint NOT NULL,
	"op_type" text NOT NULL,
	"act_user_id" bigint NOT NULL,
	"repo_id" bigint,
	"owner_id" bigint,
	"issue_id" bigint,
	"comment_id" bigint,
	"ref_name" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"is_private" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_pushes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pending_pushes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"repo_id" bigint NOT NULL,
	"actor_id" bigint NOT NULL,
	"before" jsonb NOT NULL,
	"holder" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "activities_owner_idx" ON "activities" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "activities_repo_idx" ON "activities" USING btree ("repo_id","created_at","id");--> statement-breakpoint
CREATE INDEX "activities_actor_idx" ON "activities" USING btree ("act_user_id","created_at","id");