-- Writers announce what they changed as they commit (NOTIFY is delivered at commit, to every
-- listening session), so that a server instance can keep what it read until the data moves on
-- instead of asking on every request (server/db/change-feed.ts).

-- The tenant's new list data version, as {"tenant": ..., "version": ...}.
CREATE OR REPLACE FUNCTION "application_data_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bumped record;
BEGIN
  FOR bumped IN
    INSERT INTO "application_data_versions" AS v ("tenant_id", "version")
    SELECT DISTINCT "tenant_id", 1 FROM changed_rows
    ON CONFLICT ("tenant_id") DO UPDATE SET "version" = v."version" + 1
    RETURNING v."tenant_id", v."version"
  LOOP
    PERFORM pg_notify('application_data_version', json_build_object('tenant', bumped.tenant_id, 'version', bumped.version)::text);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The id of every user record updated or deleted (status, claims, password, tokens_valid_after...).
CREATE FUNCTION "user_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('user_changed', "id"::text) FROM changed_rows;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_changed_update" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "users_changed_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_changed_notify"();
