-- Device cookies (issue 27 point 11, OWASP "Slow Down Online Guessing Attacks with Device Cookies"):
-- wrong passwords sent with a browser's valid device cookie are counted per cookie (its nonce), apart
-- from the account's count of failures from everywhere else; five lock out that cookie only.
CREATE TABLE "device_cookie_failures" (
	"nonce" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_cookie_failures" ADD CONSTRAINT "device_cookie_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_cookie_failures_user" ON "device_cookie_failures" USING btree ("user_id");--> statement-breakpoint
-- Every lock is audited with the address it came from.
ALTER TABLE "account_audit" ADD COLUMN "source_address" text DEFAULT '' NOT NULL;
