CREATE TABLE "push_mirrors" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "push_mirrors_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"repo_id" bigint NOT NULL,
	"remote_name" text NOT NULL,
	"remote_address" text NOT NULL,
	"credentials" text,
	"sync_on_commit" boolean DEFAULT true NOT NULL,
	"interval_seconds" bigint DEFAULT 28800 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"wanted_at" timestamp with time zone,
	"next_sync_at" timestamp with time zone,
	"claimed_until" timestamp with time zone,
	"last_update" timestamp with time zone,
	"last_error" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "push_mirrors" ADD CONSTRAINT "push_mirrors_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "push_mirrors_repo_name_idx" ON "push_mirrors" USING btree ("repo_id","remote_name");--> statement-breakpoint
CREATE INDEX "push_mirrors_wanted_idx" ON "push_mirrors" USING btree ("wanted_at");--> statement-breakpoint
CREATE INDEX "push_mirrors_next_idx" ON "push_mirrors" USING btree ("next_sync_at");