-- Where links sent to people point (issue 38 point 10): the tenant's configured origin, never the
-- Host header of the request that caused the message. NULL: the development default
-- http://<tenant id>.localhost:<PORT> (server/tenancy.ts linkOrigin). Expand-only: the previous
-- release ignores the column.
ALTER TABLE "tenants" ADD COLUMN "origin" text;
