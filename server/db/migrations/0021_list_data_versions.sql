-- A data version per tenant for each of the smaller lists (the users page, the verification
-- lists), bumped in the same statement as every write to their table and announced at commit like
-- the application list's (0002): a list answer is kept until its version moves
-- (server/db/versioned-answers.ts), so twenty people paging one search cost one count, not twenty.
CREATE TABLE "list_data_versions" (
  "tenant_id" text NOT NULL,
  "list" text NOT NULL,
  "version" bigint DEFAULT 0 NOT NULL,
  CONSTRAINT "list_data_versions_tenant_id_list_pk" PRIMARY KEY ("tenant_id", "list")
);
--> statement-breakpoint
-- The list's name is the trigger's argument; one bump per tenant the statement touched.
CREATE FUNCTION "list_data_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bumped record;
BEGIN
  FOR bumped IN
    INSERT INTO "list_data_versions" AS v ("tenant_id", "list", "version")
    SELECT DISTINCT "tenant_id", TG_ARGV[0], 1 FROM changed_rows
    ON CONFLICT ("tenant_id", "list") DO UPDATE SET "version" = v."version" + 1
    RETURNING v."tenant_id", v."list", v."version"
  LOOP
    PERFORM pg_notify('list_data_version', json_build_object('tenant', bumped.tenant_id, 'list', bumped.list, 'version', bumped.version)::text);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_list_version_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "list_data_version_bump"('users');
--> statement-breakpoint
CREATE TRIGGER "users_list_version_update" AFTER UPDATE ON "users" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "list_data_version_bump"('users');
--> statement-breakpoint
CREATE TRIGGER "users_list_version_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "list_data_version_bump"('users');
--> statement-breakpoint
CREATE TRIGGER "verifications_list_version_insert" AFTER INSERT ON "verifications" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "list_data_version_bump"('verifications');
--> statement-breakpoint
CREATE TRIGGER "verifications_list_version_update" AFTER UPDATE ON "verifications" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "list_data_version_bump"('verifications');
--> statement-breakpoint
CREATE TRIGGER "verifications_list_version_delete" AFTER DELETE ON "verifications" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "list_data_version_bump"('verifications');
