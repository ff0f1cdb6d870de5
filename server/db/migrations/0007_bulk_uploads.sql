-- Bulk upload (issue 15): imported files' hashes (the same file within an hour is refused) and the
-- error workbooks people download to fix their file (expire after 24 h, tenant-bound).
CREATE TABLE "bulk_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"user_id" uuid,
	"outcome" text NOT NULL,
	"sha256" text NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"error_file" bytea,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bulk_uploads" ADD CONSTRAINT "bulk_uploads_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_uploads_tenant_hash" ON "bulk_uploads" USING btree ("tenant_id","sha256","created_at");
