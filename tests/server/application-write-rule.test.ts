import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { and, asc, eq, sql } from 'drizzle-orm';
import { accessTokenFor, hosts, startTestServer, type TestServer } from './harness.ts';
import { fastifyRoutes, type FuzzRoute } from './fuzz/routes.ts';
import { toJsonSchema, type JsonSchema } from './fuzz/arbitraries.ts';
import {
  applicationActivity,
  applicationApplicants,
  applicationComments,
  applicationDocuments,
  applicationRequirements,
  applications,
  outbox,
} from '../../server/db/schema.ts';
import { registerApplicationWriteRule } from '../../server/api/application-write-rule.ts';
import { depersonalisedLinkMessage, depersonalisedWriteMessage } from '../../src/domain/application-write-rule.ts';

/**
 * Issue 27 point 2: the one state rule for application writes. Every write route of the server
 * (POST/PUT/PATCH/DELETE, found in the route catalogue as the fuzz suite finds them, no list here)
 * that names an application refuses a depersonalised one with 409 and the rule's message, and
 * nothing of the application changes. A route names an application when a field of its params or
 * body is called like one (id, guid, ApplicationId, ApplicationGuid, …): the test fills those with
 * the depersonalised application and every other field with a value its schema accepts.
 */

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Field names that carry an application: `id`, `guid`, and any name holding "application" with Id or Guid. */
const namesApplication = (name: string) => /^(id|guid)$/i.test(name) || /application.*(id|guid)$/i.test(name);

let server: TestServer;
let admin: string;
let target: { id: number; guid: string; individualId: string };

// The abuse limits are tested on their own; here every write must reach the rule.
const unreachedLimits = Object.fromEntries(
  ['RATE_LIMIT_WRITES_PER_ADDRESS', 'RATE_LIMIT_WRITES_PER_ACCOUNT'].map((name) => [name, '100000000']),
);

beforeAll(async () => {
  server = await startTestServer(unreachedLimits);
  admin = await accessTokenFor(server, 'admin@demo.test');
  const [row] = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(
      and(
        eq(applications.tenantId, 'demo'),
        sql`${applications.status} not in ('Cancelled', 'Depersonalised')`,
        sql`exists (select 1 from application_requirements r where r.application_id = ${applications.id} and r.entity_guid is not null)`,
      ),
    )
    .orderBy(asc(applications.id))
    .limit(1);
  const [applicant] = await server.db
    .select({ id: applicationApplicants.id })
    .from(applicationApplicants)
    .where(eq(applicationApplicants.applicationId, row!.id));
  target = { id: row!.id, guid: row!.guid, individualId: applicant!.id };
  const response = await server.app.inject({
    method: 'PUT',
    url: `/api/application/depersonalise/${target.guid}`,
    headers: { host: hosts.demo, authorization: `Bearer ${admin}` },
  });
  expect(response.statusCode).toBe(200);
});
afterAll(() => server.close());

/** A value the schema accepts, the target application where the field names one; `named` records that it did. */
function sample(schema: JsonSchema, name: string, named: { application: boolean }): unknown {
  if (namesApplication(name) && !schema.properties && !schema.items) {
    named.application = true;
    // An ApplicationID is digits (a number, or a string of digits in a path); anything else names it by its guid.
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    if (type === 'integer' || type === 'number') return target.id;
    return /^\^(\[0-9\]|\\d)[{+*]/.test(schema.pattern ?? '') ? String(target.id) : target.guid;
  }
  if (name === 'IndividualId') return target.individualId;
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return sample(union.find((member) => member.type !== 'null') ?? union[0]!, name, named);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return schema.format === 'uuid' ? randomUUID() : schema.format === 'email' ? 'someone@example.org' : 'a'.repeat(Math.max(schema.minLength ?? 1, 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Math.max(schema.minItems ?? 1, 1) }, () => sample(schema.items ?? {}, name, named));
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, property]) => [key, sample(property, key, named)]));
    default:
      return null;
  }
}

/** The route's URL with its params, and its body, built from its own schemas. */
function requestFor(route: FuzzRoute) {
  const named = { application: false };
  const params = route.params ? (sample(toJsonSchema(route.params), '', named) as Record<string, unknown>) : {};
  const body = route.body ? sample(toJsonSchema(route.body), '', named) : undefined;
  const url = route.url.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(params[key] ?? 'a')));
  return { url, body, namesApplication: named.application };
}

const writeRoutes = () => fastifyRoutes(server.app).filter((route) => writeMethods.has(route.method));

/** What a depersonalised application holds that a write would change. */
async function footprint() {
  const count = async (table: typeof applicationActivity | typeof applicationComments | typeof applicationDocuments | typeof outbox) =>
    (await server.db.select({ n: sql<number>`count(*)::int` }).from(table).where(eq(table.applicationId, target.id)))[0]?.n;
  const [row] = await server.db.select().from(applications).where(eq(applications.id, target.id));
  const requirements = await server.db.select().from(applicationRequirements).where(eq(applicationRequirements.applicationId, target.id)).orderBy(asc(applicationRequirements.id));
  const applicants = await server.db.select().from(applicationApplicants).where(eq(applicationApplicants.applicationId, target.id)).orderBy(asc(applicationApplicants.position));
  return {
    application: row,
    activity: await count(applicationActivity),
    comments: await count(applicationComments),
    documents: await count(applicationDocuments),
    outbox: await count(outbox),
    requirements,
    applicants,
  };
}

describe('the state rule for application writes (issue 27)', { timeout: 120_000 }, () => {
  it('every write route that names an application refuses a depersonalised one with 409, and nothing changes', async () => {
    const before = await footprint();
    expect(before.application?.status).toBe('Depersonalised');
    const refused: string[] = [];
    for (const route of writeRoutes()) {
      const request = requestFor(route);
      if (!request.namesApplication) continue;
      const response = await server.app.inject({
        method: route.method as 'POST',
        url: request.url,
        headers: { host: hosts.demo, authorization: `Bearer ${admin}` },
        ...(request.body === undefined ? {} : { payload: request.body as object }),
      });
      const name = `${route.method} ${route.url}`;
      expect(response.statusCode, `${name}: ${response.body}`).toBe(409);
      const message = route.url.startsWith('/external/') ? depersonalisedLinkMessage : depersonalisedWriteMessage;
      expect(response.json<{ message: string }>().message, name).toBe(message);
      refused.push(name);
    }
    // Discovery found the application's write routes (so the loop above could fail), among them the ones of the issue.
    expect(refused).toEqual(
      expect.arrayContaining([
        'POST /api/document/upload/:id',
        'POST /api/comment/:id',
        'POST /api/application/cancel',
        'POST /api/Reverification/verify/:applicationGuid',
        'POST /external/application-form/:guid',
        'PUT /api/application/depersonalise/:guid',
      ]),
    );
    expect(await footprint()).toEqual(before);
  });

  it('a bulk cancel cancels the open applications it names and fails the depersonalised one, with the same rule', async () => {
    const [open] = await server.db
      .select({ guid: applications.guid })
      .from(applications)
      .where(and(eq(applications.tenantId, 'demo'), sql`${applications.status} not in ('Cancelled', 'Depersonalised')`))
      .orderBy(asc(applications.id))
      .limit(1);
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/application/cancel',
      headers: { host: hosts.demo, authorization: `Bearer ${admin}` },
      payload: { ApplicationCancellations: [{ ApplicationGuid: target.guid }, { ApplicationGuid: open!.guid }] },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      Results: [
        { ApplicationGuid: target.guid, Success: false },
        { ApplicationGuid: open!.guid, Success: true },
      ],
    });
    const [row] = await server.db.select({ status: applications.status }).from(applications).where(eq(applications.id, target.id));
    expect(row?.status).toBe('Depersonalised');
  });

  it('a write route that names an application declares it (config.application), and one that names none says so', () => {
    const catalogue = new Map(server.app.routeCatalogue.map((route) => [`${[route.method].flat().join('|')} ${route.url}`, route]));
    for (const route of writeRoutes()) {
      const name = `${route.method} ${route.url}`;
      const declared = catalogue.get(name)?.config?.application;
      expect(declared, name).toBeDefined();
      // The upload reads multipart, which has no schema: its :id is still an ApplicationID.
      const namesOne = requestFor(route).namesApplication || /:id\b/.test(route.url);
      expect(typeof declared === 'function', `${name} ${namesOne ? 'names an application' : 'names none'}`).toBe(namesOne);
    }
  });

  it('a write route registered without saying which applications it writes stops the server from starting', async () => {
    const app = Fastify();
    registerApplicationWriteRule(app, server.db);
    expect(() => app.post('/api/application/something/:id', async () => ({}))).toThrow(/must declare config\.application/);
    // Reads need no declaration; a write that names none says so.
    expect(() => app.get('/api/application/read/:id', async () => ({}))).not.toThrow();
    expect(() => app.post('/api/settings', { config: { application: 'none' } }, async () => ({}))).not.toThrow();
    await app.close();
  });
});
