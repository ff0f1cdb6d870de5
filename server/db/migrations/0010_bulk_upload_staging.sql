-- Bulk upload in batches (issue 15): a 10,000-row import no longer holds the database in one long
-- transaction (on PGlite every other request waited for it). Its applications are written in short
-- batches, hidden as Cancelled (so no listing, search word or list index has them), each batch
-- recording here which applications belong to the upload; one final transaction makes them all
-- listed at once and empties this table of them. An import that fails or whose server dies leaves
-- its rows here, hidden, until they are swept (server/db/bulk-upload-store.ts).
CREATE TABLE "bulk_upload_rows" (
	"upload_id" uuid NOT NULL,
	"application_id" bigint NOT NULL,
	CONSTRAINT "bulk_upload_rows_pk" PRIMARY KEY("upload_id","application_id")
);
--> statement-breakpoint
ALTER TABLE "bulk_upload_rows" ADD CONSTRAINT "bulk_upload_rows_upload_id_bulk_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."bulk_uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_upload_rows" ADD CONSTRAINT "bulk_upload_rows_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- External ids held by an unfinished import do not count as used (usedExternalIds).
CREATE INDEX "bulk_upload_rows_application" ON "bulk_upload_rows" USING btree ("application_id");
