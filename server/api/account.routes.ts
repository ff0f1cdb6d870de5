import { eq, sql } from 'drizzle-orm';
import { AccountInfoSchema, LogoutSchema, PingSchema } from '../../src/schemas/account.schema.ts';
import { principalOf, type RouteContext } from './context.ts';
import { oidcModels } from '../db/schema.ts';

const applicationManager = { scope: 'applicationmanager' } as const;

export function registerAccountRoutes({ app, db, access }: RouteContext) {
  app.get(
    '/api/account/info',
    { onRequest: access.requireAccess(applicationManager), schema: { response: { 200: AccountInfoSchema } } },
    async (request) => {
      const user = principalOf(request);
      return {
        Claims: [
          ...user.claims,
          `Tenant:${user.tenantId}`,
          `GlobalId:${user.userId}`,
          `CreatedDate:${user.createdDate}`,
        ],
        DisplayName: user.displayName,
        Email: user.email,
      };
    },
  );

  app.get(
    '/api/account/ping',
    { onRequest: access.requireAccess(applicationManager), schema: { response: { 200: PingSchema } } },
    async () => ({ Success: true }),
  );

  /** Ends this browser's identity session: its session record and every grant it holds. */
  app.get(
    '/api/account/logout',
    { onRequest: access.requireAccess(applicationManager), schema: { response: { 200: LogoutSchema } } },
    async (request) => {
      const sessionUid = principalOf(request).sessionUid;
      if (sessionUid) {
        const sessions = await db.select().from(oidcModels).where(eq(oidcModels.uid, sessionUid));
        for (const session of sessions) {
          const authorizations = (session.payload as { authorizations?: Record<string, { grantId?: string }> })
            .authorizations;
          for (const { grantId } of Object.values(authorizations ?? {})) {
            if (grantId) await db.execute(sql`delete from oidc_models where grant_id = ${grantId} or (kind = 'Grant' and id = ${grantId})`);
          }
        }
        await db.delete(oidcModels).where(eq(oidcModels.uid, sessionUid));
      }
      return { Success: true };
    },
  );
}
