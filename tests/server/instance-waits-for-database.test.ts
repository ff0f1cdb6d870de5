import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client.ts';
import { users } from '../../server/db/schema.ts';
import { databaseUrl, onPostgres, quoteIdentifier, templateDatabaseName, testDatabaseUrl, withAdminConnection } from './template.ts';

/**
 * Issue 40 point 2: an instance that starts while PostgreSQL does not answer (restarting, or its
 * connection not made within the pool's 5 s while the instance compiles its modules on a busy
 * machine: the soak's SIGKILLed instance died so at its restart) waits for it, trying again, and
 * then migrates, seeds and serves; it exits only once the wait is over, and at once for a failure
 * that is no outage (a database that does not exist).
 */

/** A free port of 127.0.0.1 on which nothing listens (yet). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** Forwards `port` to the test cluster: PostgreSQL "coming back" on the address the instance was given. */
function forwardTo(port: number): Promise<net.Server> {
  const target = new URL(testDatabaseUrl ?? '');
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  server.on('close', () => {
    for (const socket of sockets) socket.destroy();
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

const onPort = (port: number, database: string) => {
  const url = new URL(databaseUrl(database));
  url.port = String(port);
  return url.toString();
};

describe.runIf(onPostgres)('an instance started while PostgreSQL does not answer', () => {
  it('waits for it, then migrates, runs its first seed and serves', { timeout: 60_000 }, async () => {
    const name = `portal_waits_${randomBytes(4).toString('hex')}`;
    await withAdminConnection((query) => query(`create database ${quoteIdentifier(name)} template ${quoteIdentifier(templateDatabaseName)}`));
    const port = await freePort();
    let seeded = false;
    const started = performance.now();
    const opening = openDatabase({ url: onPort(port, name) }, async () => {
      seeded = true;
    });
    // Awaited below; until then a rejection (today's start, refused at once) is not "unhandled".
    opening.catch(() => undefined);
    // Refused for 1.5 s: today's start rejects with ECONNREFUSED at once.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const forward = await forwardTo(port);
    try {
      const database = await opening;
      try {
        expect(performance.now() - started).toBeGreaterThanOrEqual(1_500);
        expect(seeded).toBe(true);
        // It serves: the template's demo administrator is read through the instance's pool.
        const admins = await database.db.select({ email: users.email }).from(users).where(eq(users.email, 'admin@demo.test'));
        expect(admins).toEqual([{ email: 'admin@demo.test' }]);
      } finally {
        await database.close();
      }
    } finally {
      forward.close();
      await withAdminConnection((query) => query(`drop database if exists ${quoteIdentifier(name)} with (force)`));
    }
  });

  it('exits once its wait is over, not before', { timeout: 30_000 }, async () => {
    const port = await freePort();
    const started = performance.now();
    const error: unknown = await openDatabase({ url: onPort(port, 'postgres'), startupWaitMs: 2_000 }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(Error);
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
    expect(elapsed).toBeLessThan(4_000);
  });

  it('fails at once when the database itself refuses (it does not exist): no outage to wait out', { timeout: 30_000 }, async () => {
    const started = performance.now();
    const error: unknown = await openDatabase({ url: databaseUrl(`portal_absent_${randomBytes(4).toString('hex')}`) }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toMatchObject({ code: '3D000' });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
