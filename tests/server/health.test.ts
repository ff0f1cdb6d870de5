import Fastify from 'fastify';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { registerHealthRoutes } from '../../server/api/health.routes.ts';
import type { RouteContext } from '../../server/api/context.ts';

/**
 * Readiness when the database does not answer. The answering case runs against the real server in
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
  it('answers 503 unavailable at once when the database refuses the query', async () => {
    const started = Date.now();
    const response = await healthApp(() => Promise.reject(new Error('database thread died'))).inject('/api/health');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', databaseRestarts: 3 });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('answers 503 unavailable after two seconds when the database hangs, not never', async () => {
    const started = Date.now();
    const response = await healthApp(() => new Promise(() => {})).inject('/api/health');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', databaseRestarts: 3 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
  });

  it('asks the database a real question: an empty statement is no check', async () => {
    const statements: string[] = [];
    const app = healthApp(async (query: SQL) => statements.push(new PgDialect().sqlToQuery(query).sql));
    expect((await app.inject('/api/health')).statusCode).toBe(200);
    expect(statements).toEqual(['select 1']);
  });
});
