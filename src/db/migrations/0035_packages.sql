CREATE TABLE "package_blobs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "package_blobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"md5" text NOT NULL,
	"sha1" text NOT NULL,
	"sha512" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_cleanup_rules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "package_cleanup_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"type" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"keep_count" bigint DEFAULT 0 NOT NULL,
	"keep_pattern" text DEFAULT '' NOT NULL,
	"remove_days" bigint DEFAULT 0 NOT NULL,
	"remove_pattern" text DEFAULT '' NOT NULL,
	"match_full_name" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_files" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "package_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"version_id" bigint NOT NULL,
	"blob_id" bigint NOT NULL,
	"name" text NOT NULL,
	"lower_name" text NOT NULL,
	"is_lead" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "package_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"package_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"version" text NOT NULL,
	"lower_version" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "packages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"repo_id" bigint,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"lower_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "package_cleanup_rules" ADD CONSTRAINT "package_cleanup_rules_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_files" ADD CONSTRAINT "package_files_version_id_package_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."package_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_files" ADD CONSTRAINT "package_files_blob_id_package_blobs_id_fk" FOREIGN KEY ("blob_id") REFERENCES "public"."package_blobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_versions" ADD CONSTRAINT "package_versions_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "package_blobs_sha256_key" ON "package_blobs" USING btree ("sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "package_cleanup_rules_owner_type_key" ON "package_cleanup_rules" USING btree ("owner_id","type");--> statement-breakpoint
CREATE UNIQUE INDEX "package_files_version_name_key" ON "package_files" USING btree ("version_id","lower_name");--> statement-breakpoint
CREATE INDEX "package_files_blob_idx" ON "package_files" USING btree ("blob_id");--> statement-breakpoint
CREATE UNIQUE INDEX "package_versions_package_version_key" ON "package_versions" USING btree ("package_id","lower_version");--> statement-breakpoint
CREATE INDEX "package_versions_package_created_idx" ON "package_versions" USING btree ("package_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "packages_owner_type_name_key" ON "packages" USING btree ("owner_id","type","lower_name");