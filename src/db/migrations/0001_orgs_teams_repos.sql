CREATE TABLE "org_members" (
	"org_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	CONSTRAINT "org_members_org_id_user_id_pk" PRIMARY KEY("org_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"team_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"org_id" bigint NOT NULL,
	CONSTRAINT "team_members_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "team_units" (
	"team_id" bigint NOT NULL,
	"unit" text NOT NULL,
	"access_mode" text NOT NULL,
	CONSTRAINT "team_units_team_id_unit_pk" PRIMARY KEY("team_id","unit")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "teams_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"name" text NOT NULL,
	"lower_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"access_mode" text NOT NULL,
	"includes_all_repositories" boolean DEFAULT false NOT NULL,
	"can_create_org_repo" boolean DEFAULT false NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collaborations" (
	"repo_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"access_mode" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collaborations_repo_id_user_id_pk" PRIMARY KEY("repo_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "labels" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "labels_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"repo_id" bigint,
	"org_id" bigint,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"exclusive" boolean DEFAULT false NOT NULL,
	"is_archived" boolean DEFAULT false NOT NULL,
	"num_issues" integer DEFAULT 0 NOT NULL,
	"num_closed_issues" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "repositories" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "repositories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"name" text NOT NULL,
	"lower_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"is_private" boolean DEFAULT false NOT NULL,
	"is_empty" boolean DEFAULT true NOT NULL,
	"is_archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone,
	"is_mirror" boolean DEFAULT false NOT NULL,
	"is_template" boolean DEFAULT false NOT NULL,
	"default_branch" text DEFAULT 'main' NOT NULL,
	"object_format" text DEFAULT 'sha1' NOT NULL,
	"trust_model" text DEFAULT 'default' NOT NULL,
	"has_code" boolean DEFAULT true NOT NULL,
	"has_issues" boolean DEFAULT true NOT NULL,
	"has_wiki" boolean DEFAULT true NOT NULL,
	"has_pull_requests" boolean DEFAULT true NOT NULL,
	"has_projects" boolean DEFAULT true NOT NULL,
	"has_releases" boolean DEFAULT true NOT NULL,
	"has_packages" boolean DEFAULT true NOT NULL,
	"has_actions" boolean DEFAULT true NOT NULL,
	"projects_mode" text DEFAULT 'all' NOT NULL,
	"external_tracker" jsonb,
	"external_wiki_url" text,
	"enable_time_tracker" boolean DEFAULT true NOT NULL,
	"allow_only_contributors_to_track_time" boolean DEFAULT true NOT NULL,
	"enable_issue_dependencies" boolean DEFAULT true NOT NULL,
	"ignore_whitespace_conflicts" boolean DEFAULT false NOT NULL,
	"allow_merge_commits" boolean DEFAULT true NOT NULL,
	"allow_rebase" boolean DEFAULT true NOT NULL,
	"allow_rebase_explicit" boolean DEFAULT true NOT NULL,
	"allow_squash_merge" boolean DEFAULT true NOT NULL,
	"allow_fast_forward_only_merge" boolean DEFAULT true NOT NULL,
	"allow_manual_merge" boolean DEFAULT false NOT NULL,
	"autodetect_manual_merge" boolean DEFAULT false NOT NULL,
	"allow_rebase_update" boolean DEFAULT true NOT NULL,
	"default_delete_branch_after_merge" boolean DEFAULT false NOT NULL,
	"default_merge_style" text DEFAULT 'merge' NOT NULL,
	"default_allow_maintainer_edit" boolean DEFAULT false NOT NULL,
	"num_issues" integer DEFAULT 0 NOT NULL,
	"num_closed_issues" integer DEFAULT 0 NOT NULL,
	"num_pulls" integer DEFAULT 0 NOT NULL,
	"num_closed_pulls" integer DEFAULT 0 NOT NULL,
	"num_stars" integer DEFAULT 0 NOT NULL,
	"num_watches" integer DEFAULT 0 NOT NULL,
	"num_forks" integer DEFAULT 0 NOT NULL,
	"num_releases" integer DEFAULT 0 NOT NULL,
	"num_branches" integer DEFAULT 0 NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"topics" text[] DEFAULT '{}'::text[] NOT NULL,
	"licenses" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_repos" (
	"team_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"org_id" bigint NOT NULL,
	CONSTRAINT "team_repos_team_id_repo_id_pk" PRIMARY KEY("team_id","repo_id")
);
--> statement-breakpoint
ALTER TABLE "org_members" ADD CONSTRAINT "org_members_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_members" ADD CONSTRAINT "org_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_units" ADD CONSTRAINT "team_units_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaborations" ADD CONSTRAINT "collaborations_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaborations" ADD CONSTRAINT "collaborations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labels" ADD CONSTRAINT "labels_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labels" ADD CONSTRAINT "labels_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repositories" ADD CONSTRAINT "repositories_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_repos" ADD CONSTRAINT "team_repos_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_repos" ADD CONSTRAINT "team_repos_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "org_members_user_idx" ON "org_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "team_members_user_org_idx" ON "team_members" USING btree ("user_id","org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_org_lower_name_key" ON "teams" USING btree ("org_id","lower_name");--> statement-breakpoint
CREATE INDEX "collaborations_user_idx" ON "collaborations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "labels_repo_idx" ON "labels" USING btree ("repo_id");--> statement-breakpoint
CREATE INDEX "labels_org_idx" ON "labels" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "repositories_owner_lower_name_key" ON "repositories" USING btree ("owner_id","lower_name");--> statement-breakpoint
CREATE INDEX "repositories_lower_name_idx" ON "repositories" USING btree ("lower_name");--> statement-breakpoint
CREATE INDEX "repositories_updated_idx" ON "repositories" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "team_repos_repo_idx" ON "team_repos" USING btree ("repo_id");