import { eq } from 'drizzle-orm';
import type { Database } from './db/client.ts';
import { tenantHosts, tenants } from './db/schema.ts';
import { Lru } from './lru.ts';
import type { ServerConfig } from './config.ts';

export type Tenant = typeof tenants.$inferSelect;

/** The host name without its port, lower-cased: `Demo.localhost:8080` → `demo.localhost`. */
export function hostName(hostHeader: string | undefined): string {
  const host = (hostHeader ?? '').toLowerCase();
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
}

/**
 * The origin of every link sent to people (reset, invitation, resume, biometric SMS; issue 38 point
 * 10): the tenant's configured origin, never the request's Host header, whose case and port are the
 * client's to choose. Unconfigured (the demo tenants), the tenant's development host on this
 * server's port: `http://acme.localhost:8080`.
 */
export function linkOrigin(tenant: Pick<Tenant, 'id' | 'origin'>, config: Pick<ServerConfig, 'PORT'>): string {
  return tenant.origin?.replace(/\/+$/, '') ?? `http://${tenant.id}.localhost:${config.PORT}`;
}

/** Resolves the tenant a request's host serves; undefined means the tenant-not-found page. */
export function createTenantResolver(db: Database) {
  // Host mappings change only through the seed; a short-lived cache keeps this off the hot path.
  // Bounded: anyone can send any Host, and each unknown one is an entry too.
  const cache = new Lru<{ tenant: Tenant | undefined; at: number }>();
  const maxAgeMs = 30_000;
  const maxEntries = 1_000;

  return async function resolveTenant(hostHeader: string | undefined): Promise<Tenant | undefined> {
    const host = hostName(hostHeader);
    const cached = cache.get(host);
    if (cached && Date.now() - cached.at < maxAgeMs) return cached.tenant;
    const [row] = await db
      .select({ tenant: tenants })
      .from(tenantHosts)
      .innerJoin(tenants, eq(tenantHosts.tenantId, tenants.id))
      .where(eq(tenantHosts.host, host));
    cache.set(host, { tenant: row?.tenant, at: Date.now() });
    cache.evict(() => cache.size > maxEntries);
    return row?.tenant;
  };
}

export type TenantResolver = ReturnType<typeof createTenantResolver>;
