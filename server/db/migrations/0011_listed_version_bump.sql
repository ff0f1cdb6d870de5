-- A write that changes only Cancelled applications changes no list: a bulk upload's hidden batches
-- (written Cancelled, decision 008) and the sweep of an abandoned one. Until now every statement on
-- applications moved the tenant's list data version, so each hidden batch of an import (one every
-- ~100 ms) dropped every cached count and seek list of the tenant, and the next list request paid a
-- recount (bench:bulk-upload). The version now moves when a changed row is listed before or after
-- the statement; application_owners and user_visibility keep application_data_version_bump.
-- Moves the list data version of each tenant named and announces it (the body of
-- application_data_version_bump until now, shared by both trigger functions below).
CREATE FUNCTION "application_data_versions_bump"(tenants text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  bumped record;
BEGIN
  FOR bumped IN
    INSERT INTO "application_data_versions" AS v ("tenant_id", "version")
    SELECT DISTINCT tenant, 1 FROM unnest(tenants) AS tenant WHERE tenant IS NOT NULL
    ON CONFLICT ("tenant_id") DO UPDATE SET "version" = v."version" + 1
    RETURNING v."tenant_id", v."version"
  LOOP
    PERFORM pg_notify('application_data_version', json_build_object('tenant', bumped.tenant_id, 'version', bumped.version)::text);
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "application_data_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "application_data_versions_bump"(array(SELECT "tenant_id" FROM changed_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- An update's rows count when listed before (old_rows) or after (changed_rows); an insert's or a
-- delete's trigger names its only transition table changed_rows.
CREATE FUNCTION "application_listed_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM "application_data_versions_bump"(array(
      SELECT "tenant_id" FROM changed_rows WHERE "status" <> 'Cancelled'
      UNION ALL
      SELECT "tenant_id" FROM old_rows WHERE "status" <> 'Cancelled'));
  ELSE
    PERFORM "application_data_versions_bump"(array(SELECT "tenant_id" FROM changed_rows WHERE "status" <> 'Cancelled'));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "applications_version_insert" ON "applications";
--> statement-breakpoint
DROP TRIGGER "applications_version_update" ON "applications";
--> statement-breakpoint
DROP TRIGGER "applications_version_delete" ON "applications";
--> statement-breakpoint
CREATE TRIGGER "applications_version_insert" AFTER INSERT ON "applications" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "application_listed_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "applications_version_update" AFTER UPDATE ON "applications" REFERENCING OLD TABLE AS old_rows NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "application_listed_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "applications_version_delete" AFTER DELETE ON "applications" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "application_listed_version_bump"();
