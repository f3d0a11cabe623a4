CREATE TABLE "action_artifact_files" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_artifact_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"artifact_id" bigint NOT NULL,
	"path" text NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"stored_size" bigint DEFAULT 0 NOT NULL,
	"content_encoding" text DEFAULT '' NOT NULL,
	"storage_path" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "action_artifact_files" ADD CONSTRAINT "action_artifact_files_artifact_id_action_artifacts_id_fk" FOREIGN KEY ("artifact_id") REFERENCES "public"."action_artifacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "action_artifact_files_path_key" ON "action_artifact_files" USING btree ("artifact_id","path");