CREATE TABLE "repo_redirects" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "repo_redirects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"lower_name" text NOT NULL,
	"repo_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_redirects" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_redirects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"lower_name" text NOT NULL,
	"user_id" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "repo_redirects" ADD CONSTRAINT "repo_redirects_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repo_redirects" ADD CONSTRAINT "repo_redirects_repo_id_repositories_id_fk" FOREIGN KEY ("repo_id") REFERENCES "public"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_redirects" ADD CONSTRAINT "user_redirects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "repo_redirects_owner_name_key" ON "repo_redirects" USING btree ("owner_id","lower_name");--> statement-breakpoint
CREATE INDEX "repo_redirects_repo_idx" ON "repo_redirects" USING btree ("repo_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_redirects_name_key" ON "user_redirects" USING btree ("lower_name");--> statement-breakpoint
CREATE INDEX "user_redirects_user_idx" ON "user_redirects" USING btree ("user_id");--> statement-breakpoint
-- A repository or account that takes a name removes the redirect of that name (Gitea's DeleteRedirect on
-- create, rename and transfer), whatever wrote the row.
CREATE OR REPLACE FUNCTION anvil_repo_name_taken() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM repo_redirects WHERE owner_id = NEW.owner_id AND lower_name = NEW.lower_name;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER repositories_name_taken AFTER INSERT ON repositories FOR EACH ROW EXECUTE FUNCTION anvil_repo_name_taken();
--> statement-breakpoint
CREATE TRIGGER repositories_name_moved AFTER UPDATE OF owner_id, lower_name ON repositories FOR EACH ROW
  WHEN (OLD.owner_id IS DISTINCT FROM NEW.owner_id OR OLD.lower_name IS DISTINCT FROM NEW.lower_name)
  EXECUTE FUNCTION anvil_repo_name_taken();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION anvil_user_name_taken() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_redirects WHERE lower_name = NEW.lower_name;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_name_taken AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION anvil_user_name_taken();
--> statement-breakpoint
CREATE TRIGGER users_name_moved AFTER UPDATE OF lower_name ON users FOR EACH ROW
  WHEN (OLD.lower_name IS DISTINCT FROM NEW.lower_name)
  EXECUTE FUNCTION anvil_user_name_taken();
