import { eq } from 'drizzle-orm';
import type { Database } from './db/client.ts';
import { tenantHosts, tenants } from './db/schema.ts';
import { Lru } from './lru.ts';

export type Tenant = typeof tenants.$inferSelect;

/** The host name without its port, lower-cased: `Demo.localhost:8080` → `demo.localhost`. */
export function hostName(hostHeader: string | undefined): string {
  const host = (hostHeader ?? '').toLowerCase();
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
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
