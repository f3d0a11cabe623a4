CREATE TABLE "access_tokens" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "access_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_last_eight" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "email_addresses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "email_addresses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"email" text NOT NULL,
	"lower_email" text NOT NULL,
	"is_activated" boolean DEFAULT false NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"lower_name" text NOT NULL,
	"type" text DEFAULT 'User' NOT NULL,
	"full_name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"keep_email_private" boolean DEFAULT false NOT NULL,
	"password_hash" text DEFAULT '' NOT NULL,
	"must_change_password" boolean DEFAULT false NOT NULL,
	"login_source" bigint DEFAULT 0 NOT NULL,
	"login_name" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"language" text DEFAULT '' NOT NULL,
	"visibility" text DEFAULT 'public' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"is_restricted" boolean DEFAULT false NOT NULL,
	"prohibit_login" boolean DEFAULT false NOT NULL,
	"allow_create_organization" boolean DEFAULT true NOT NULL,
	"max_repo_creation" integer DEFAULT -1 NOT NULL,
	"repo_admin_change_team_access" boolean DEFAULT false NOT NULL,
	"num_followers" integer DEFAULT 0 NOT NULL,
	"num_following" integer DEFAULT 0 NOT NULL,
	"num_stars" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_addresses" ADD CONSTRAINT "email_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "access_tokens_hash_key" ON "access_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "access_tokens_user_name_key" ON "access_tokens" USING btree ("user_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "email_addresses_lower_email_key" ON "email_addresses" USING btree ("lower_email");--> statement-breakpoint
CREATE INDEX "email_addresses_user_idx" ON "email_addresses" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "email_addresses_one_primary" ON "email_addresses" USING btree ("user_id") WHERE "email_addresses"."is_primary";--> statement-breakpoint
CREATE UNIQUE INDEX "users_lower_name_key" ON "users" USING btree ("lower_name");--> statement-breakpoint
CREATE INDEX "users_type_idx" ON "users" USING btree ("type");