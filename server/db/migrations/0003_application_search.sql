-- A search alone reads a narrow table of search words instead of the wide applications rows: a
-- broad search (a quarter of a million matches) then visits a third of the pages. A search beside
-- other filters keeps the GIN index on applications, rebuilt here on the same words
-- (docs/decisions/001).
CREATE TABLE "application_search" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"document" "tsvector" NOT NULL
);
--> statement-breakpoint
-- The words `q` searches (AM §7: id, account name, client name, e-mail, external id, account number),
-- lower-cased with every run of other characters a space, so that the 'simple' configuration keeps
-- plain words and a query word matches as a prefix (`smi:*`). Positions are stripped: no query
-- asks for them.
CREATE FUNCTION "application_search_document"(id bigint, account_name text, client_name text, primary_email text, external_id text, account_number text)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN strip(to_tsvector('simple'::regconfig, regexp_replace(lower(id::text || ' ' || account_name || ' ' || client_name || ' ' || primary_email || ' ' || external_id || ' ' || account_number), '[^a-z0-9]+', ' ', 'g')));
--> statement-breakpoint
-- Keeps application_search in step with every write to applications, whoever the writer is: a
-- listed (not cancelled) application has its row, with the words of its current values.
CREATE FUNCTION "application_search_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    -- Only rows whose words, tenant or listing changed (an assignment leaves the search alone).
    DELETE FROM application_search s USING new_rows n JOIN old_rows o ON o.id = n.id
    WHERE s.id = n.id AND (n.tenant_id, n.status = 'Cancelled', n.account_name, n.client_name, n.primary_email, n.external_id, n.account_number)
      IS DISTINCT FROM (o.tenant_id, o.status = 'Cancelled', o.account_name, o.client_name, o.primary_email, o.external_id, o.account_number);
    INSERT INTO application_search ("id", "tenant_id", "document")
    SELECT n.id, n.tenant_id, application_search_document(n.id, n.account_name, n.client_name, n.primary_email, n.external_id, n.account_number)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status <> 'Cancelled' AND (n.tenant_id, n.status = 'Cancelled', n.account_name, n.client_name, n.primary_email, n.external_id, n.account_number)
      IS DISTINCT FROM (o.tenant_id, o.status = 'Cancelled', o.account_name, o.client_name, o.primary_email, o.external_id, o.account_number);
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM application_search s USING old_rows o WHERE s.id = o.id;
  ELSE
    INSERT INTO application_search ("id", "tenant_id", "document")
    SELECT n.id, n.tenant_id, application_search_document(n.id, n.account_name, n.client_name, n.primary_email, n.external_id, n.account_number)
    FROM new_rows n WHERE n.status <> 'Cancelled';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "applications_search_insert" AFTER INSERT ON "applications" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "application_search_sync"();
--> statement-breakpoint
CREATE TRIGGER "applications_search_update" AFTER UPDATE ON "applications" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "application_search_sync"();
--> statement-breakpoint
CREATE TRIGGER "applications_search_delete" AFTER DELETE ON "applications" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "application_search_sync"();
--> statement-breakpoint
INSERT INTO "application_search" ("id", "tenant_id", "document")
SELECT id, tenant_id, application_search_document(id, account_name, client_name, primary_email, external_id, account_number)
FROM "applications" WHERE status <> 'Cancelled';
--> statement-breakpoint
-- Built after the rows are in: one pass instead of an insertion per row.
CREATE INDEX "application_search_document" ON "application_search" USING gin ("document");
--> statement-breakpoint
DROP INDEX IF EXISTS "applications_search";
--> statement-breakpoint
CREATE INDEX "applications_search" ON "applications" USING gin (application_search_document(id, account_name, client_name, primary_email, external_id, account_number)) WHERE status <> 'Cancelled';
--> statement-breakpoint
-- Statistics for the planner now (PGlite runs no autovacuum): a search's estimate comes from them.
ANALYZE "applications", "application_search";
