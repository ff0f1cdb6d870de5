-- Reports (issue 30): the tenant's time zone, in which report periods are cut, and the last form
-- section an incomplete application reached (the Last Section chart and the detail).
ALTER TABLE "tenants" ADD COLUMN "time_zone" text DEFAULT 'Australia/Sydney' NOT NULL;
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "last_section" text;
--> statement-breakpoint
-- The report summary reads the listed applications created, or completed, in a range. These two
-- indexes carry every column it reads (the visibility columns included), so a recount after a write
-- is an index-only scan of the range instead of heap visits to every row of it.
CREATE INDEX "applications_report_created" ON "applications" USING btree ("tenant_id","date_created") INCLUDE ("application_type","date_completed","last_section","owner_id","assignee_user_id","location","restriction_group") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_report_completed" ON "applications" USING btree ("tenant_id","date_completed") INCLUDE ("application_type","date_created","owner_id","assignee_user_id","location","restriction_group") WHERE status <> 'Cancelled' AND date_completed IS NOT NULL;
