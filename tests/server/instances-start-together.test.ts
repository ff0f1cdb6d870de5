import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { users } from '../../server/db/schema.ts';
import { seedDemo } from '../../server/db/seed.ts';
import { databaseUrl, onPostgres, quoteIdentifier, withAdminConnection } from './template.ts';

/**
 * Issue 40 point 1: several instances started at the same moment on one empty PostgreSQL database
 * (a container platform's replicas, a rolling upgrade) all migrate, seed and serve: the migrations
 * and the first seed run under an advisory lock, and the instances after the first find them done.
 * Each instance here is a real pool of its own connections, so the database sees them as it would
 * see separate processes.
 */
describe.runIf(onPostgres)('three instances started together on an empty database', () => {
  it('all three migrate, seed and serve', { timeout: 240_000 }, async () => {
    const name = `portal_together_${randomBytes(4).toString('hex')}`;
    await withAdminConnection((query) => query(`create database ${quoteIdentifier(name)}`));
    const filesDir = await mkdtemp(join(tmpdir(), 'portal-together-'));
    const instances = await Promise.all(
      [1, 2, 3].map(async () => {
        const database = await openDatabase({ url: databaseUrl(name) }, seedDemo);
        const app = await buildApp({ db: database.db, config: readConfig({ LOG_LEVEL: 'silent', FILES_DIR: filesDir, DEPERSONALISE_SCRUB: 'off' }) });
        return { database, app };
      }),
    );
    try {
      for (const { app } of instances) {
        const health = await app.inject({ url: '/api/health', headers: { host: 'localhost' } });
        expect(health.statusCode).toBe(200);
        const tenant = await app.inject({ url: '/api/tenant/validate', headers: { host: 'acme.localhost' } });
        expect(tenant.statusCode).toBe(200);
      }
      // One seed, not three: the demo accounts exist once each.
      const admins = await instances[0]!.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@demo.test'));
      expect(admins).toHaveLength(1);
    } finally {
      for (const { app, database } of instances) {
        await app.close();
        await database.close();
      }
      await rm(filesDir, { recursive: true, force: true });
      await withAdminConnection((query) => query(`drop database if exists ${quoteIdentifier(name)} with (force)`));
    }
  });
});
