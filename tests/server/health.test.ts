import Fastify from 'fastify';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { registerHealthRoutes } from '../../server/api/health.routes.ts';
import type { RouteContext } from '../../server/api/context.ts';

/**
 * Liveness and readiness when the database does not answer (issue 40 point 3). The answering case runs against the real server in
 * hardening.test.ts; a database that fails or hangs on purpose is a stand-in here, since the real
 * one is made to die only by killing its thread (pglite-thread.test.ts).
 */
function healthApp(execute: (query: SQL) => Promise<unknown>) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerHealthRoutes({ app, db: { execute } } as unknown as RouteContext, () => 3);
  return app;
}

describe('readiness while the database does not answer', () => {
  it('answers 503 unavailable at once when the database refuses the query, while liveness stays 200', async () => {
    const app = healthApp(() => Promise.reject(new Error('database thread died')));
    const started = Date.now();
    const response = await app.inject('/api/health/ready');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', database: false });
    expect(Date.now() - started).toBeLessThan(1_000);
    const live = await app.inject('/api/health');
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok', databaseRestarts: 3 });
  });

  it('answers 503 unavailable after two seconds when the database hangs, not never', async () => {
    const started = Date.now();
    const response = await healthApp(() => new Promise(() => {})).inject('/api/health/ready');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', database: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
  });

  it('asks the database a real question: an empty statement is no check', async () => {
    const statements: string[] = [];
    const app = healthApp(async (query: SQL) => statements.push(new PgDialect().sqlToQuery(query).sql));
    const response = await app.inject('/api/health/ready');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', database: true });
    expect(statements).toEqual(['select 1']);
  });
});

describe('readiness while the instance stops', () => {
  it('turns 503 draining once draining starts, though the database answers; liveness stays 200', async () => {
    const app = healthApp(async () => undefined);
    expect((await app.inject('/api/health/ready')).statusCode).toBe(200);
    app.startDraining();
    const response = await app.inject('/api/health/ready');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'draining', database: true });
    expect((await app.inject('/api/health')).statusCode).toBe(200);
  });
});
