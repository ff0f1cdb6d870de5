-- Which applications each list data version changed (issue 33): the list engine brings a cached
-- list up to date by re-placing only those rows (catchUp in applications-list.ts) instead of
-- reading the whole list again after every write. A version whose changes cannot be named — a
-- change of owners or visibility (the scope of lists), or a statement changing more than 1,000
-- listed rows — is recorded with a NULL application id: lists are read again after it, as before.
-- Rows older than 10,000 versions of their tenant are deleted as versions pass: a cache that far
-- behind is read again.
CREATE TABLE "application_list_changes" (
  "tenant_id" text NOT NULL,
  "version" bigint NOT NULL,
  "application_id" bigint
);
--> statement-breakpoint
CREATE INDEX "application_list_changes_version" ON "application_list_changes" ("tenant_id", "version");
--> statement-breakpoint
-- Moves the list data version of each tenant named, records the ids it changed (ids[i] of
-- tenants[i]; NULL: unknown) and announces it.
CREATE FUNCTION "application_list_changes_record"(tenants text[], ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  bumped record;
BEGIN
  FOR bumped IN
    INSERT INTO "application_data_versions" AS v ("tenant_id", "version")
    SELECT DISTINCT tenant, 1 FROM unnest(tenants) AS tenant WHERE tenant IS NOT NULL
    ON CONFLICT ("tenant_id") DO UPDATE SET "version" = v."version" + 1
    RETURNING v."tenant_id", v."version"
  LOOP
    IF (SELECT count(*) FROM unnest(tenants) AS tenant WHERE tenant = bumped.tenant_id) > 1000 THEN
      INSERT INTO "application_list_changes" VALUES (bumped.tenant_id, bumped.version, NULL);
    ELSE
      INSERT INTO "application_list_changes"
      SELECT DISTINCT bumped.tenant_id, bumped.version, changed.id
      FROM unnest(tenants, ids) AS changed(tenant, id) WHERE changed.tenant = bumped.tenant_id;
    END IF;
    IF bumped.version % 1000 = 0 THEN
      DELETE FROM "application_list_changes" WHERE "tenant_id" = bumped.tenant_id AND "version" <= bumped.version - 10000;
    END IF;
    PERFORM pg_notify('application_data_version', json_build_object('tenant', bumped.tenant_id, 'version', bumped.version)::text);
  END LOOP;
END
$$;
--> statement-breakpoint
-- Owners and visibility change the scope of lists, not named rows: their ids are unknown (NULL).
CREATE OR REPLACE FUNCTION "application_data_versions_bump"(tenants text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "application_list_changes_record"(tenants, array_fill(NULL::bigint, ARRAY[cardinality(tenants)]));
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "application_listed_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM "application_list_changes_record"(array_agg("tenant_id"), array_agg("id")) FROM (
      SELECT "tenant_id", "id" FROM changed_rows WHERE "status" <> 'Cancelled'
      UNION
      SELECT "tenant_id", "id" FROM old_rows WHERE "status" <> 'Cancelled') AS listed;
  ELSE
    PERFORM "application_list_changes_record"(array_agg("tenant_id"), array_agg("id")) FROM changed_rows WHERE "status" <> 'Cancelled';
  END IF;
  RETURN NULL;
END
$$;
