CREATE TABLE "deploy_keys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deploy_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"name" text NOT NULL,
	"lower_name" text NOT NULL,
	"read_only" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "public_keys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "public_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"fingerprint" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "deploy_keys" ADD CONSTRAINT "deploy_keys_key_id_public_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."public_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deploy_keys" ADD CONSTRAINT "deploy_keys_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_keys" ADD CONSTRAINT "public_keys_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deploy_keys_repo_key_key" ON "deploy_keys" USING btree ("repo_id","key_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deploy_keys_repo_name_key" ON "deploy_keys" USING btree ("repo_id","lower_name");--> statement-breakpoint
CREATE INDEX "deploy_keys_key_idx" ON "deploy_keys" USING btree ("key_id");--> statement-breakpoint
CREATE UNIQUE INDEX "public_keys_fingerprint_key" ON "public_keys" USING btree ("fingerprint");--> statement-breakpoint
CREATE INDEX "public_keys_owner_idx" ON "public_keys" USING btree ("owner_id","id");