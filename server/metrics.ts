import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database, PoolStats } from './db/client.ts';
import { listEngineFor } from './db/applications-list.ts';

interface MetricsOptions {
  /** The bearer token a scraper must present; metrics are off (no route) without one. */
  token: string;
  db: Database;
  poolStats?: () => PoolStats;
}

/** Latency buckets around the budgets (list and writes p99 ≤ 150 ms, the 10 s outage bound). */
const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route's pattern (`/api/application/get/:id`), never the raw URL: one series per route, not per id. */
const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';

const sameToken = (presented: string, expected: string) => {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The log line of every request (pino JSON at info: route, status, duration), and
 * `GET /metrics` in Prometheus's text format for an operator (issue 40 point 5, README "Running
 * several instances"): requests and their latency by route and status, the database pool, the
 * list engine's cache counters (what /api/admin/cachestats shows), rate-limit refusals and the
 * process's own figures. Off unless METRICS_TOKEN is set, and then only with that bearer token:
 * the route names and counts are not for the public. Each instance is scraped on its own; the
 * registry is this app's, so several apps in one process (tests) do not share series.
 */
export function registerMetrics(app: FastifyInstance, { token, db, poolStats }: MetricsOptions) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'portal_' });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'portal_http_requests_total', help: 'HTTP requests answered, by route and status.', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route and status.',
    labelNames,
    buckets: latencyBuckets,
    registers: [registry],
  });
  const refusals = new Counter({ name: 'portal_rate_limit_refusals_total', help: 'Requests refused by an abuse limit (429), by route.', labelNames: ['route'], registers: [registry] });

  if (poolStats) {
    new Gauge({
      name: 'portal_db_pool_connections',
      help: 'Database pool connections: in use, idle, and requests waiting for one.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const { total, idle, waiting } = poolStats();
        this.set({ state: 'in_use' }, total - idle);
        this.set({ state: 'idle' }, idle);
        this.set({ state: 'waiting' }, waiting);
      },
    });
  }

  // Totals the list engine keeps since the instance started, read at each scrape.
  const listCounters = {
    portal_list_requests_total: ['List requests served.', 'requests'],
    portal_list_count_hits_total: ['List totals answered from the cache.', 'countHits'],
    portal_list_recounts_total: ['List totals counted in the database.', 'countMisses'],
    portal_list_seek_hits_total: ['Pages answered from cached seek positions.', 'seekHits'],
    portal_list_row_hits_total: ['List rows answered from kept rows.', 'rowHits'],
    portal_list_catch_ups_total: ['Caches brought to the data version by the changed rows.', 'catchUps'],
    portal_list_refreshes_total: ['Background catch-ups started by pages served from an earlier version.', 'refreshes'],
    portal_list_snapshot_pages_total: ['Pages read in one statement because writes outran the caches.', 'snapshotPages'],
  } as const;
  for (const [name, [help, stat]] of Object.entries(listCounters)) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(listEngineFor(db).stats()[stat]);
      },
    });
  }

  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: routeOf(request), status: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) refusals.inc({ route: labels.route });
    request.log.info({ method: request.method, route: labels.route, url: request.url, status: reply.statusCode, durationMs: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
  });

  if (!token) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const presented = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameToken(presented, token)) return reply.code(401).header('www-authenticate', 'Bearer').send({ statusCode: 401, error: 'Unauthorized', message: 'A metrics token is required.' });
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
