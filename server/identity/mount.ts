import type { FastifyInstance, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Database } from '../db/client.ts';
import type { ServerConfig } from '../config.ts';
import type { IdentitySecrets } from './secrets.ts';
import { createProvider } from './provider.ts';
import { requestOrigin } from '../api/auth.ts';
import { notFound } from '../http-error.ts';
import { Lru } from '../lru.ts';

const mountPath = '/oidc';

/**
 * Mounts oidc-provider at /oidc. One provider per tenant origin, built on first use; they hold no
 * state of their own (everything is in Postgres), so this cache is safe across instances. Bounded:
 * a tenant's host reached through any port is another origin, and the Host header is the client's.
 */
export function mountIdentityProvider(app: FastifyInstance, deps: { db: Database; config: ServerConfig; secrets: IdentitySecrets }) {
  const providers = new Lru<{ provider: Provider; handle: ReturnType<Provider['callback']> }>();
  const maxProviders = 32;

  function entryFor(request: FastifyRequest) {
    const tenant = request.tenant;
    if (!tenant) throw notFound('Unknown tenant.');
    const origin = requestOrigin(request);
    let entry = providers.get(origin);
    if (!entry) {
      const provider = createProvider(origin, { ...deps, tenantId: tenant.id });
      entry = { provider, handle: provider.callback() };
      providers.set(origin, entry);
      providers.evict(() => providers.size > maxProviders);
    }
    return entry;
  }

  // onRequest runs before Fastify parses bodies, so the provider reads the raw request itself.
  app.addHook('onRequest', async (request, reply) => {
    if (request.url !== mountPath && !request.url.startsWith(`${mountPath}/`)) return;
    const { handle } = entryFor(request);
    reply.hijack();
    const raw = request.raw as typeof request.raw & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = (raw.url ?? '').slice(mountPath.length) || '/';
    handle(raw, reply.raw);
  });

  return async (request: FastifyRequest) => entryFor(request).provider;
}
