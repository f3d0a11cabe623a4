CREATE TABLE "lfs_locks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lfs_locks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"repo_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lfs_meta_objects" (
	"oid" text NOT NULL,
	"repo_id" bigint NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lfs_meta_objects_repo_id_oid_pk" PRIMARY KEY("repo_id","oid")
);
--> statement-breakpoint
ALTER TABLE "lfs_locks" ADD CONSTRAINT "lfs_locks_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lfs_locks" ADD CONSTRAINT "lfs_locks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lfs_meta_objects" ADD CONSTRAINT "lfs_meta_objects_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lfs_locks_repo_path_key" ON "lfs_locks" USING btree ("repo_id","path");--> statement-breakpoint
CREATE INDEX "lfs_locks_repo_idx" ON "lfs_locks" USING btree ("repo_id","id");--> statement-breakpoint
CREATE INDEX "lfs_meta_objects_oid_idx" ON "lfs_meta_objects" USING btree ("oid");