-- Which step a sign-in's challenge is at (issue 38 point 1): 'code' for an account that has a
-- second factor (only its code may finish the sign-in), 'enrol' for one the tenant requires to
-- enrol. Each interaction route accepts only its own step, so a password alone cannot enrol a new
-- authenticator over the owner's. Expand only: a challenge opened by the previous release reads
-- 'code', so at worst an enrolment under way during the upgrade starts its sign-in again.
ALTER TABLE "mfa_challenges" ADD COLUMN "step" text DEFAULT 'code' NOT NULL;
