-- Each named change also keeps the row as it was before it (issue 33; NULL for an insert: the row
-- was not there). A list held in part — the first and last chunks of a million-row list — cannot
-- tell from its ids alone whether a changed row it has not read was in it: with the old row the
-- list engine evaluates the list's WHERE over what the row was, adjusts TotalRows by the writes'
-- own delta and re-places the changed rows within the chunks it holds (catchUp in
-- applications-list.ts), where it counted the whole list again after every write.
ALTER TABLE "application_list_changes" ADD COLUMN "old_row" jsonb;
--> statement-breakpoint
DROP FUNCTION "application_list_changes_record"(text[], bigint[]);
--> statement-breakpoint
-- Moves the list data version of each tenant named, records the ids it changed (ids[i] of
-- tenants[i]; NULL: unknown) with their rows before the change (old_rows[i]) and announces it.
CREATE FUNCTION "application_list_changes_record"(tenants text[], ids bigint[], old_rows jsonb[]) RETURNS void LANGUAGE plpgsql AS $$
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
      INSERT INTO "application_list_changes" VALUES (bumped.tenant_id, bumped.version, NULL, NULL);
    ELSE
      INSERT INTO "application_list_changes"
      SELECT DISTINCT bumped.tenant_id, bumped.version, changed.id, changed.old_row
      FROM unnest(tenants, ids, old_rows) AS changed(tenant, id, old_row) WHERE changed.tenant = bumped.tenant_id;
    END IF;
    IF bumped.version % 1000 = 0 THEN
      DELETE FROM "application_list_changes" WHERE "tenant_id" = bumped.tenant_id AND "version" <= bumped.version - 10000;
    END IF;
    PERFORM pg_notify('application_data_version', json_build_object('tenant', bumped.tenant_id, 'version', bumped.version)::text);
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "application_data_versions_bump"(tenants text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "application_list_changes_record"(tenants, array_fill(NULL::bigint, ARRAY[cardinality(tenants)]), array_fill(NULL::jsonb, ARRAY[cardinality(tenants)]));
END
$$;
--> statement-breakpoint
-- A statement of more than 1,000 rows names none of them (its versions are read again, as before):
-- its old rows are not worth copying. An id is named with its old row or not at all, so a NULL old
-- row beside an id always means an insert.
CREATE OR REPLACE FUNCTION "application_listed_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  named boolean := (SELECT count(*) FROM changed_rows) <= 1000;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM "application_list_changes_record"(
      array_agg(o."tenant_id"), array_agg(CASE WHEN named THEN o."id" END), array_agg(CASE WHEN named THEN to_jsonb(o) END))
    FROM old_rows o JOIN changed_rows n ON n."id" = o."id"
    WHERE o."status" <> 'Cancelled' OR n."status" <> 'Cancelled';
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM "application_list_changes_record"(
      array_agg("tenant_id"), array_agg(CASE WHEN named THEN "id" END), array_agg(NULL::jsonb))
    FROM changed_rows WHERE "status" <> 'Cancelled';
  ELSE
    PERFORM "application_list_changes_record"(
      array_agg(d."tenant_id"), array_agg(CASE WHEN named THEN d."id" END), array_agg(CASE WHEN named THEN to_jsonb(d) END))
    FROM changed_rows d WHERE d."status" <> 'Cancelled';
  END IF;
  RETURN NULL;
END
$$;
