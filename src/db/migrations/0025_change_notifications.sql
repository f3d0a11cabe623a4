-- Cross-process cache invalidation (#31, src/db/changes.ts): a committed write to a table that an
-- in-process cache copies rows of notifies every process listening on 'anvil_changes', with the table's
-- name. The authentication cache copies users and access_tokens. Every write to users counts: the cached
-- user row is also what GET /user answers with (its star and follower counts, its last sign-in), so no
-- column may be left out. A token's last_used_at is left out: no answer is built from the cached token's.
CREATE OR REPLACE FUNCTION anvil_note_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('anvil_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_changed_rows AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION anvil_note_change();
--> statement-breakpoint
CREATE TRIGGER access_tokens_changed_rows AFTER DELETE ON access_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION anvil_note_change();
--> statement-breakpoint
CREATE TRIGGER access_tokens_changed_columns AFTER UPDATE ON access_tokens FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
  EXECUTE FUNCTION anvil_note_change();
