-- Issue 39 points 1 and 14, for data directories seeded before this release. Application access
-- (HasApplicationAccess) now decides what an admin staff user may list and open, so the README's
-- admin and read-only demo accounts, which list All Apps, get it as a fresh seed gives it; and the
-- manager demo account holds the tenant's "Application Manager" role, as the fresh seed does.
-- Data only, on named demo rows: the previous release ignores the flag and the role's name.
UPDATE "users" SET "has_application_access" = true
  WHERE ("tenant_id", "email") IN (('demo', 'admin@demo.test'), ('demo', 'readonly@demo.test'), ('acme', 'admin@acme.test'));
--> statement-breakpoint
UPDATE "users" SET "role_name" = 'Application Manager'
  WHERE "tenant_id" = 'demo' AND "email" = 'manager@demo.test' AND "role_name" = 'Application Manager (no admin, no user management)';
