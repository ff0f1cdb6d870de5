-- Issue 27 points 9 and 10. Failed sign-ins of names that have no lockable account (unknown or
-- deactivated e-mails) are counted where the real accounts' are, in the database: a restart or a
-- flood of other names no longer tells the two apart.
CREATE TABLE "sign_in_name_failures" (
	"tenant_id" text NOT NULL REFERENCES "tenants"("id"),
	"email" text NOT NULL,
	"failed_attempts" integer NOT NULL DEFAULT 0,
	"updated_at" timestamp with time zone NOT NULL DEFAULT now(),
	PRIMARY KEY ("tenant_id", "email")
);
--> statement-breakpoint
-- Fixed-window request and failure counters shared by every instance on one PostgreSQL
-- (DATABASE_URL); the embedded database keeps them in memory (one process). Rows past resets_at
-- are restarted by the next hit and swept now and then.
CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY,
	"hits" integer NOT NULL,
	"resets_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limit_counters_resets_at" ON "rate_limit_counters" ("resets_at");
