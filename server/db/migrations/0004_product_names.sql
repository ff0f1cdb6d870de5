-- The Products column sorts by the names people read (the catalogue names of the codes, in their
-- order, joined by ', '), not by the codes: 'Account Based Pension' (PENSION) comes before 'Cash
-- Management Account' (CMA). The names are kept on each row, like the owner and assignee names, so
-- the sort stays one index walk.
DROP INDEX "applications_sort_productdisplaynamelist";
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "product_names" text DEFAULT '' NOT NULL;
--> statement-breakpoint
-- As the list shows them: a code the tenant's catalogue does not know shows as itself.
CREATE FUNCTION "application_product_names"(tenant text, codes text[]) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE
RETURN coalesce((
  SELECT string_agg(coalesce(p.name, c.code), ', ' ORDER BY c.position)
  FROM unnest(codes) WITH ORDINALITY AS c(code, position)
  LEFT JOIN products p ON p.tenant_id = tenant AND p.code = c.code
), '');
--> statement-breakpoint
-- Whoever writes the codes, the names follow (a bulk seed switches this off and writes them itself).
CREATE FUNCTION "application_product_names_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.product_names := application_product_names(NEW.tenant_id, NEW.product_codes);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "applications_product_names" BEFORE INSERT OR UPDATE OF product_codes, tenant_id ON "applications" FOR EACH ROW EXECUTE FUNCTION "application_product_names_sync"();
--> statement-breakpoint
-- A renamed product renames it in every application holding it (rare, and an admin's act).
CREATE FUNCTION "product_name_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE applications SET product_names = application_product_names(tenant_id, product_codes)
  WHERE tenant_id = NEW.tenant_id AND product_codes @> ARRAY[NEW.code];
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "products_name" AFTER UPDATE OF name ON "products" FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION "product_name_sync"();
--> statement-breakpoint
UPDATE "applications" SET "product_names" = application_product_names(tenant_id, product_codes) WHERE cardinality(product_codes) > 0;
--> statement-breakpoint
CREATE INDEX "applications_sort_productdisplaynamelist" ON "applications" USING btree ("tenant_id","product_names","id") WHERE status <> 'Cancelled';
--> statement-breakpoint
ANALYZE "applications";
