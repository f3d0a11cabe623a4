CREATE TABLE "repo_transfers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "repo_transfers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"repo_id" bigint NOT NULL,
	"doer_id" bigint NOT NULL,
	"recipient_id" bigint NOT NULL,
	"team_ids" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"granted_read" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "repo_transfers" ADD CONSTRAINT "repo_transfers_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repo_transfers" ADD CONSTRAINT "repo_transfers_doer_id_users_id_fk" FOREIGN KEY ("doer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repo_transfers" ADD CONSTRAINT "repo_transfers_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "repo_transfers_repo_key" ON "repo_transfers" USING btree ("repo_id");--> statement-breakpoint
CREATE INDEX "repo_transfers_recipient_idx" ON "repo_transfers" USING btree ("recipient_id");