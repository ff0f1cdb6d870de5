import Fastify, { LogController, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, PoolStats } from './db/client.ts';
import { listEngineFor } from './db/applications-list.ts';
import type { ServerConfig } from './config.ts';
import { createTenantResolver } from './tenancy.ts';
import { loadIdentitySecrets } from './identity/secrets.ts';
import { mountIdentityProvider } from './identity/mount.ts';
import { registerInteractionRoutes } from './identity/interaction.routes.ts';
import { registerMfaInteractionRoutes } from './identity/mfa-interaction.ts';
import { registerPasswordRoutes } from './identity/password.routes.ts';
import { registerPasswordResetRoutes } from './identity/password-reset.routes.ts';
import { createAccessControl } from './api/auth.ts';
import type { RouteContext } from './api/context.ts';
import { registerAccountRoutes } from './api/account.routes.ts';
import { registerMfaRoutes } from './api/mfa.routes.ts';
import { registerConfigurationRoutes } from './api/configuration.routes.ts';
import { registerMonitoringRoutes } from './api/monitoring.routes.ts';
import { registerApplicationRoutes } from './api/applications.routes.ts';
import { registerLookupRoutes } from './api/lookups.routes.ts';
import { registerAdminRoutes } from './api/admin.routes.ts';
import { registerApplicationDetailRoutes } from './api/application-detail.routes.ts';
import { registerDocumentRoutes } from './api/documents.routes.ts';
import { registerBulkUploadRoutes } from './api/bulk-upload.routes.ts';
import { registerApplicationMessageRoutes } from './api/application-messages.routes.ts';
import { registerApiStepRoutes } from './api/api-steps.routes.ts';
import { registerReportRoutes } from './api/reports.routes.ts';
import { registerReportSummaryRoutes } from './api/report-summary.routes.ts';
import { registerOutboxRoutes } from './api/outbox.routes.ts';
import { registerUserRoutes } from './api/users.routes.ts';
import { registerInvitationRoutes } from './identity/invitation.routes.ts';
import { mailerFor } from './providers/mail/mailer.ts';
import { apiStepsFor } from './providers/api-steps/api-steps.ts';
import { registerApplicationActionRoutes } from './api/application-actions.routes.ts';
import { registerIdentityVerificationRoutes } from './api/identity-verification.routes.ts';
import { registerVerificationRoutes } from './api/verifications.routes.ts';
import type { FileStorage } from './storage/file-storage.ts';
import { storageFor } from './storage/storage.ts';
import { ensureSampleDocuments } from './storage/sample-documents.ts';
import { registerPortalStatic } from './static.ts';
import { registerHealthRoutes } from './api/health.routes.ts';
import { registerEventRoutes } from './api/events.routes.ts';
import { registerMetrics } from './metrics.ts';
import { registerRateLimits } from './rate-limits.ts';
import { countersFor } from './counters.ts';
import { registerErrorHandler } from './errors.ts';
import { registerInputGuards } from './input-guards.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import { registerApplicationWriteRule } from './api/application-write-rule.ts';
import { registerProxyHeaders, trustProxyOf } from './trust-proxy.ts';
import { originFormTarget } from './request-target.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on this instance (method, url, schema), in registration order. */
    routeCatalogue: readonly RouteOptions[];
  }
}

export interface AppOptions {
  db: Database;
  config: ServerConfig;
  /** How often the database thread was restarted (PGlite on a data directory); readiness reports it. */
  databaseRestarts?: () => number;
  /** The built portal (vite build output); omitted in API-only tests. */
  distDir?: string;
  /** Where document bytes live; by default what the configuration says (server/storage/storage.ts). */
  storage?: FileStorage;
  /** The PostgreSQL pool's connections, for the metrics (none on PGlite). */
  poolStats?: () => PoolStats;
}

/** Builds the portal server: identity provider, API and (when built) the portal itself. */
export async function buildApp({ db, config, distDir, databaseRestarts = () => 0, storage = storageFor(config, db), poolStats }: AppOptions) {
  const app = Fastify({
    logger: { level: config.LOG_LEVEL },
    // One log line per request (metrics.ts's hook), not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trustProxyOf(config.TRUST_PROXY),
    rewriteUrl: originFormTarget,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every route as registered, with its schema: the fuzz suite reads this, so a new route is fuzzed the day it exists.
  const routes: RouteOptions[] = [];
  app.decorate('routeCatalogue', routes);
  app.addHook('onRoute', (route) => void routes.push(route));
  // Every write route declares the applications it writes, and gets their state rule (issue 27).
  registerApplicationWriteRule(app, db);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  registerErrorHandler(app);
  registerMetrics(app, { token: config.METRICS_TOKEN, db, poolStats });
  // Order matters: headers first (every answer carries them, refusals too), then the input rules,
  // then the tenant; all before the identity provider's hook takes its requests over.
  await registerSecurityHeaders(app);
  registerProxyHeaders(app, trustProxyOf(config.TRUST_PROXY));
  registerInputGuards(app);

  const resolveTenant = createTenantResolver(db);
  app.decorateRequest('tenant', undefined);
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request) => {
    request.tenant = await resolveTenant(request.headers.host);
  });
  // A person's own answered write: their next list pages are read at the data's current version.
  app.addHook('onResponse', async (request, reply) => {
    if (request.principal && reply.statusCode < 400 && !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
      listEngineFor(db).noteWrite(request.principal.tenantId, request.principal.userId);
    }
  });
  // After the tenant hook, before the identity provider's hook takes /oidc requests over.
  registerRateLimits(app, config, countersFor(db, config.DATABASE_URL));

  const secrets = await loadIdentitySecrets(db);
  const providerFor = mountIdentityProvider(app, { db, config, secrets });
  registerInteractionRoutes(app, db, providerFor, secrets);
  registerMfaInteractionRoutes(app, db, providerFor, mailerFor(config));

  const context: RouteContext = { app, db, config, access: createAccessControl(db, secrets, app.accountWriteLimit) };
  registerPasswordRoutes(context);
  registerPasswordResetRoutes(context, mailerFor(config));
  registerAccountRoutes(context);
  registerMfaRoutes(context);
  registerConfigurationRoutes(context);
  registerMonitoringRoutes(context);
  registerApplicationRoutes(context);
  registerLookupRoutes(context);
  registerAdminRoutes(context);
  registerApplicationDetailRoutes(context);
  registerDocumentRoutes(context, storage);
  registerBulkUploadRoutes(context);
  registerApplicationMessageRoutes(context, mailerFor(config));
  registerApiStepRoutes(context, apiStepsFor());
  registerReportRoutes(context);
  registerReportSummaryRoutes(context);
  registerOutboxRoutes(context, providerFor);
  registerApplicationActionRoutes(context, storage);
  registerIdentityVerificationRoutes(context);
  registerUserRoutes(context, mailerFor(config));
  registerInvitationRoutes(app, db, mailerFor(config), config);
  registerVerificationRoutes(context);
  await registerEventRoutes(context);
  // The files seeded documents point at (a few small samples), in whichever storage this is.
  await ensureSampleDocuments(storage);
  registerHealthRoutes(context, databaseRestarts);

  if (distDir) await registerPortalStatic(app, distDir);
  return app;
}
