-- Every grant that ends (sign-out, refresh-token reuse, revocation, password change) is announced,
-- so that the API can refuse its access tokens at once without asking the database on every
-- request (server/api/grant-liveness.ts).
CREATE FUNCTION "grant_ended_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('grant_ended', "id") FROM changed_rows WHERE "kind" = 'Grant';
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "oidc_grant_ended" AFTER DELETE ON "oidc_models" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "grant_ended_notify"();
