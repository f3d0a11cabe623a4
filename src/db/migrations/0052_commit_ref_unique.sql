-- Hand-written: concurrent pushes of one commit could each add a commit_ref entry; keep the first of each
-- issue and commit before the unique index makes a second impossible.
DELETE FROM "comments" c USING "comments" d WHERE c.type = 'commit_ref' AND d.type = 'commit_ref' AND c.issue_id = d.issue_id AND c.commit_sha = d.commit_sha AND c.id > d.id;--> statement-breakpoint
CREATE UNIQUE INDEX "comments_commit_ref_uq" ON "comments" USING btree ("issue_id","commit_sha") WHERE type = 'commit_ref';
