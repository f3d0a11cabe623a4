CREATE TABLE "repo_languages" (
	"repo_id" bigint NOT NULL,
	"language" text NOT NULL,
	"bytes" bigint NOT NULL,
	"commit" text NOT NULL,
	CONSTRAINT "repo_languages_repo_id_language_pk" PRIMARY KEY("repo_id","language")
);
--> statement-breakpoint
CREATE TABLE "tag_protections" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tag_protections_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"repo_id" bigint NOT NULL,
	"name_pattern" text NOT NULL,
	"allowlist_user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"allowlist_team_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "repo_languages" ADD CONSTRAINT "repo_languages_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_protections" ADD CONSTRAINT "tag_protections_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tag_protections_pattern_key" ON "tag_protections" USING btree ("repo_id","name_pattern");