CREATE TABLE "activity_tallies" (
	"owner_id" bigint NOT NULL,
	"act_user_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "activity_tallies_owner_id_act_user_id_repo_id_pk" PRIMARY KEY("owner_id","act_user_id","repo_id")
);
--> statement-breakpoint
CREATE INDEX "activity_tallies_actor_idx" ON "activity_tallies" USING btree ("act_user_id");--> statement-breakpoint
CREATE INDEX "activity_tallies_repo_idx" ON "activity_tallies" USING btree ("repo_id");--> statement-breakpoint
-- The feed rows written before this migration.
INSERT INTO "activity_tallies" ("owner_id", "act_user_id", "repo_id", "n")
  SELECT coalesce("owner_id", 0), "act_user_id", "repo_id", count(*) FROM "activities" WHERE "repo_id" IS NOT NULL GROUP BY 1, 2, 3;
