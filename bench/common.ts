import { existsSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../server/db/client.ts';
import { readConfig } from '../server/config.ts';
import { buildApp } from '../server/app.ts';
import { seedDemo } from '../server/db/seed.ts';
import { applicationCount, seedApplications } from '../server/db/applications-seed.ts';
import { users, userVisibility } from '../server/db/schema.ts';
import { sqlRunner } from '../server/db/sql-runner.ts';
import { warmListTables } from '../server/db/buffer-warmup.ts';
import { signIn, type TestServer } from '../tests/server/harness.ts';

export const benchApplications = Number(process.env.BENCH_APPLICATIONS ?? 1_000_000);
export const benchDataDir = process.env.BENCH_DATA_DIR ?? fileURLToPath(new URL('../.data/bench', import.meta.url));
export const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 20);
/** PostgreSQL instead of PGlite (the same schema and code); seeded the same way on first use. */
export const benchDatabaseUrl = process.env.BENCH_DATABASE_URL;

/**
 * The other tenant's applications: the list bench warms the server up on them (every code path of a
 * list page, compiled) without touching any cache the measured tenant's lists use.
 */
export const warmupTenant = { id: 'acme', host: 'acme.localhost', admin: 'admin@acme.test', applications: 20_000 };

/** A user who sees All Apps through view.allapps.location only (Sydney and Melbourne). */
export const locationUserEmail = 'bench-location@demo.test';

export interface BenchServer {
  handle: DatabaseHandle;
  baseUrl: string;
  host: string;
  /** The port the server listens on (a tenant's host is `name:port`). */
  port: number;
  /** An access token for `email`, signed in on `host` (the measured tenant's by default). */
  token(email: string, host?: string): Promise<string>;
  close(): Promise<void>;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Opens (seeding once, then reusing) the bench database and serves the real app on a free port;
 * `env` sets server configuration (e.g. abuse limits a write bench from one address would hit).
 */
export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  let started = performance.now();
  let handle: DatabaseHandle;
  if (benchDatabaseUrl) {
    handle = await openDatabase({ url: benchDatabaseUrl });
    console.log(`PostgreSQL ${await serverVersion(handle)} opened in ${seconds(performance.now() - started)}`);
  } else {
    const fresh = !existsSync(benchDataDir);
    if (!fresh) {
      const read = await readIntoPageCache(join(benchDataDir, 'base'));
      console.log(`OS page cache: read ${(read.bytes / 2 ** 30).toFixed(1)} GiB of database files in ${seconds(read.ms)}`);
    }
    handle = await openDatabase({ dataDir: benchDataDir });
    if (await tuneSharedBuffers(handle)) {
      // The setting is read at start-up: reopen.
      await handle.close();
      handle = await openDatabase({ dataDir: benchDataDir });
    }
    console.log(`PGlite ${await serverVersion(handle)} ${fresh ? 'created' : 'opened'} in ${seconds(performance.now() - started)} (${benchDataDir})`);
  }
  console.log(`shared_buffers ${await sharedBuffers(handle)}`);
  await seedDemo(handle.db);
  for (const [tenantId, total] of [['demo', benchApplications], [warmupTenant.id, warmupTenant.applications]] as const) {
    if ((await applicationCount(handle.db, tenantId)) >= total) continue;
    started = performance.now();
    const result = await seedApplications(handle.db, { tenantId, total });
    console.log(
      `seeded ${result.added.toLocaleString('en-AU')} applications for ${tenantId} in ${seconds(performance.now() - started)} ` +
        `(generate ${seconds(result.generateMs)}, COPY ${seconds(result.loadMs)}, indexes ${seconds(result.indexMs)}, then vacuum analyze)`,
    );
  }
  await ensureLocationUser(handle);

  const app = await buildApp({ db: handle.db, config: readConfig({ LOG_LEVEL: 'silent', ...env }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const host = `127.0.0.1:${port}`;
  // As the server does after its start (main.ts); awaited, so that every run measures the same state.
  const warmed = await warmListTables(handle.db);
  if (warmed) console.log(`buffer pool warmed: ${warmed.pages.toLocaleString('en-AU')} pages in ${seconds(warmed.ms)}`);
  const server: TestServer = { app, db: handle.db, filesDir: '', close: async () => undefined };
  return {
    handle,
    host,
    port,
    baseUrl: `http://${host}`,
    async token(email, tokenHost = host) {
      const { tokens } = await signIn(server, email, undefined, tokenHost);
      if (!tokens) throw new Error(`sign-in failed for ${email}`);
      return tokens.access_token;
    },
    async close() {
      await app.close();
      await handle.close();
    },
  };
}

/**
 * Reads every file under `dir` once, so that the database's pages are in the OS page cache as on a
 * server that has been running. PGlite reads every page it does not hold through the file system,
 * and this VM's page-cache reclaim drops a 5 GB database from the cache within minutes of its last
 * read: without this a figure measured the disk, and two runs minutes apart differed 1.5-fold.
 */
async function readIntoPageCache(dir: string): Promise<{ bytes: number; ms: number }> {
  const started = performance.now();
  const buffer = Buffer.allocUnsafe(1 << 20);
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = await open(join(entry.parentPath, entry.name));
    try {
      for (let read = -1; read !== 0; bytes += read) ({ bytesRead: read } = await file.read(buffer, 0, buffer.length));
    } finally {
      await file.close();
    }
  }
  return { bytes, ms: performance.now() - started };
}

async function serverVersion({ db }: Pick<DatabaseHandle, 'db'>): Promise<string> {
  const [row] = await sqlRunner(db).textRows('show server_version', []);
  return row?.[0] ?? '?';
}

async function sharedBuffers({ db }: Pick<DatabaseHandle, 'db'>): Promise<string> {
  const [row] = await sqlRunner(db).textRows('show shared_buffers', []);
  return row?.[0] ?? '?';
}

/**
 * PostgreSQL's shared buffers default to 128 MB, a third of this table; on PGlite every miss is a
 * read through the WASM file system. Like any Postgres holding a million rows, the bench database
 * gets a buffer pool that fits the table (BENCH_SHARED_BUFFERS, 'default' to leave it alone).
 * Returns whether the setting changed (it applies from the next start).
 */
async function tuneSharedBuffers({ db }: Pick<DatabaseHandle, 'db'>): Promise<boolean> {
  const wanted = process.env.BENCH_SHARED_BUFFERS ?? '640MB';
  const current = await sharedBuffers({ db });
  if (wanted === 'default') {
    if (current === '128MB') return false;
    await db.execute(sql.raw('alter system reset shared_buffers'));
    return true;
  }
  if (current === wanted) return false;
  await db.execute(sql.raw(`alter system set shared_buffers = '${wanted.replace(/[^0-9A-Za-z]/g, '')}'`));
  return true;
}

async function ensureLocationUser({ db }: DatabaseHandle) {
  const [existing] = await db.select().from(users).where(eq(users.email, locationUserEmail));
  if (existing) return;
  const [template] = await db.select().from(users).where(eq(users.email, 'staff@demo.test'));
  if (!template) throw new Error('demo accounts missing');
  const [user] = await db
    .insert(users)
    .values({
      tenantId: 'demo',
      email: locationUserEmail,
      firstName: 'Lou',
      lastName: 'Cation',
      roleName: 'Staff',
      passwordHash: template.passwordHash,
      claims: ['view.allapps.location', 'app.export'],
    })
    .returning();
  if (!user) throw new Error('insert failed');
  await db.insert(userVisibility).values({ userId: user.id, tenantId: 'demo', locations: ['Sydney', 'Melbourne'], restrictionGroups: [] });
}

export interface Stats {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

export function summarise(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? 0 };
}

/**
 * The list as a person pages it while other work runs (a request, then 100 ms), timed from request
 * to last byte; `stop` ends it and summarises the waits.
 */
export function pollListMeanwhile(baseUrl: string, authorization: string) {
  const latencies: number[] = [];
  let polling = true;
  const done = (async () => {
    while (polling) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/application/list/all?rowsPerPage=20`, { headers: { authorization } });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`list: ${response.status}`);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    stop: async () => {
      polling = false;
      await done;
      return summarise(latencies);
    },
  };
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;
export const ratio = (value: number, budget: number) => `${(value / budget).toFixed(2)}× of ${budget} ms budget`;

export function rssMiB() {
  return process.memoryUsage().rss / (1024 * 1024);
}
