CREATE TABLE "follows" (
	"user_id" bigint NOT NULL,
	"follow_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "follows_user_id_follow_id_pk" PRIMARY KEY("user_id","follow_id")
);
--> statement-breakpoint
CREATE TABLE "user_blocks" (
	"blocker_id" bigint NOT NULL,
	"blockee_id" bigint NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_blocks_blocker_id_blockee_id_pk" PRIMARY KEY("blocker_id","blockee_id")
);
--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_follow_id_users_id_fk" FOREIGN KEY ("follow_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_blocks" ADD CONSTRAINT "user_blocks_blocker_id_users_id_fk" FOREIGN KEY ("blocker_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_blocks" ADD CONSTRAINT "user_blocks_blockee_id_users_id_fk" FOREIGN KEY ("blockee_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "follows_follow_idx" ON "follows" USING btree ("follow_id","user_id");--> statement-breakpoint
CREATE INDEX "user_blocks_blockee_idx" ON "user_blocks" USING btree ("blockee_id","blocker_id");--> statement-breakpoint
-- followers_count and following_count stay exact whatever removes a follow (an unfollow, a block, a
-- deleted account's cascade): the counters move with the rows, in the same statement.
CREATE OR REPLACE FUNCTION anvil_follow_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE users SET num_following = num_following + 1 WHERE id = NEW.user_id;
    UPDATE users SET num_followers = num_followers + 1 WHERE id = NEW.follow_id;
    RETURN NEW;
  END IF;
  UPDATE users SET num_following = greatest(num_following - 1, 0) WHERE id = OLD.user_id;
  UPDATE users SET num_followers = greatest(num_followers - 1, 0) WHERE id = OLD.follow_id;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER follows_counts AFTER INSERT OR DELETE ON follows FOR EACH ROW EXECUTE FUNCTION anvil_follow_counts();
