import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Database } from '../db/client.ts';
import { oidcModels } from '../db/schema.ts';
import type { ListScope } from '../db/applications-list.ts';
import type { RawListQuery } from '../../src/domain/list-request.ts';

/**
 * Download links for export.csv (issue 16 point 12). The page asks for a link with its bearer token
 * and hands it to the browser, whose own download then streams the file to disk with its progress,
 * so the page never holds the CSV. The link is the credential, so it is:
 * - short-lived: a minute, enough for the browser to start at once;
 * - single-use: taking it deletes it in the same statement, so two requests cannot both win;
 * - tenant-bound: only the tenant's own host finds it (another tenant's is a 404 like an unknown one);
 * - bound to what the caller could export when they asked (the scope their claims gave, the query).
 * Links live in oidc_models (kind 'ExportLink'), the table every instance shares for short-lived,
 * expiring records, keyed by the token's SHA-256 so the table never holds a usable link.
 */
export const exportLinkLifetimeSeconds = 60;

const kind = 'ExportLink';

/** 32 random bytes, base64url: 43 characters. Anything else names no link and is not looked up. */
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

export const ExportDownloadParamsSchema = z.object({ token: z.string().max(64) });

const ExportLinkPayloadSchema = z.object({
  tenantId: z.string(),
  scope: z.union([
    z.object({ kind: z.literal('mine'), userId: z.string() }),
    z.object({ kind: z.literal('instance') }),
    z.object({ kind: z.literal('restricted'), userId: z.string(), byLocation: z.boolean(), byRestrictionGroup: z.boolean() }),
  ]),
  query: z.record(z.string(), z.string()),
});

export interface ExportLink {
  tenantId: string;
  scope: ListScope;
  query: RawListQuery;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** Stores a link for `link` and returns its token; links that expired unused are removed on the way. */
export async function issueExportLink(db: Database, link: ExportLink, now = Date.now()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + exportLinkLifetimeSeconds * 1000);
  await db.delete(oidcModels).where(and(eq(oidcModels.kind, kind), lt(oidcModels.expiresAt, sql`now()`)));
  await db.insert(oidcModels).values({
    kind,
    id: digest(token),
    payload: { tenantId: link.tenantId, scope: link.scope, query: link.query },
    expiresAt,
  });
  return token;
}

/**
 * Takes the link of `token` on tenant `tenantId`: its export once, or undefined when the token is
 * unknown, used, expired or another tenant's (which keeps it for its own tenant).
 */
export async function consumeExportLink(db: Database, tenantId: string, token: string): Promise<ExportLink | undefined> {
  if (!tokenPattern.test(token)) return undefined;
  const [row] = await db
    .delete(oidcModels)
    .where(
      and(
        eq(oidcModels.kind, kind),
        eq(oidcModels.id, digest(token)),
        gt(oidcModels.expiresAt, sql`now()`),
        sql`${oidcModels.payload}->>'tenantId' = ${tenantId}`,
      ),
    )
    .returning({ payload: oidcModels.payload });
  if (!row) return undefined;
  const parsed = ExportLinkPayloadSchema.safeParse(row.payload);
  return parsed.success ? parsed.data : undefined;
}
