import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';
import { applicationLabels, applicationOwners, products, subBrands, users } from '../../server/db/schema.ts';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
});
afterAll(() => server.close());

const get = (url: string, token?: string, host?: string) => api(server, 'GET', url, { token, host });

describe('lookups (AM §7)', () => {
  it('lists the tenant labels and system labels (tags) as Name/Value options', async () => {
    const labels = (await server.db.select().from(applicationLabels).where(eq(applicationLabels.tenantId, 'demo'))).filter((row) => row.kind === 'label');
    const response = await get('/api/label/list', admin);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(labels.map((row) => ({ Name: row.name, Value: row.name })).sort((a, b) => (a.Name < b.Name ? -1 : 1)));
    const tags = (await get('/api/label/system/list', admin)).json<{ Name: string }[]>();
    expect(tags.map((tag) => tag.Name)).toContain('Bulk upload');
    expect(tags.map((tag) => tag.Name)).not.toContain('Urgent');
  });

  it('lists sub-brands, and products by name with their code as value', async () => {
    const brands = await server.db.select().from(subBrands).where(eq(subBrands.tenantId, 'demo'));
    expect((await get('/api/subbrand/list', admin)).json<{ Value: string }[]>().map((option) => option.Value).sort()).toEqual(brands.map((row) => row.name).sort());
    const catalogue = await server.db.select().from(products).where(eq(products.tenantId, 'demo'));
    const options = (await get('/api/product/list', admin)).json<{ Name: string; Value: string }[]>();
    expect(options).toHaveLength(catalogue.length);
    expect(options).toContainEqual({ Name: 'Managed Funds', Value: 'MF' });
  });

  it('lists the tenant staff as assignees and the owners with their ids', async () => {
    const staff = await server.db.select().from(users).where(eq(users.tenantId, 'demo'));
    const { Assignees } = (await get('/api/account/assignees', admin)).json<{ Assignees: { Name: string; Value: string; Assignable: boolean }[] }>();
    expect(Assignees.map((option) => option.Value).sort()).toEqual(staff.map((user) => user.id).sort());
    expect(Assignees.find((option) => option.Name === 'Avery Admin')).toMatchObject({ Assignable: true });
    const owners = await server.db.select().from(applicationOwners).where(eq(applicationOwners.tenantId, 'demo'));
    const { ApplicationOwners } = (await get('/api/owner/list', admin)).json<{ ApplicationOwners: { PublicId: string; DisplayName: string; GlobalUserId: string }[] }>();
    expect(ApplicationOwners).toHaveLength(owners.length);
    const staffOwner = ApplicationOwners.find((owner) => owner.DisplayName === 'Sam Staff')!;
    expect(staffOwner.GlobalUserId).toBe(staff.find((user) => user.email === 'staff@demo.test')!.id);
  });

  it('answers each tenant with its own lists', async () => {
    const acme = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
    const brands = (await get('/api/subbrand/list', acme, hosts.acme)).json<{ Value: string }[]>();
    expect(brands.length).toBeGreaterThan(0);
    for (const brand of brands) expect(brand.Value.startsWith('Acme')).toBe(true);
    const { Assignees } = (await get('/api/account/assignees', acme, hosts.acme)).json<{ Assignees: { Name: string }[] }>();
    // acme's own people only (its admin and its seeded staff), none of demo's.
    const acmeNames = new Set((await server.db.select().from(users).where(eq(users.tenantId, 'acme'))).map((user) => `${user.firstName} ${user.lastName}`));
    const names = Assignees.map((option) => option.Name);
    expect(names).toContain('Alex Acme');
    expect(names.filter((name) => !acmeNames.has(name))).toEqual([]);
    expect((await get('/api/label/list', acme, hosts.demo)).statusCode).toBe(401);
  });

  it('needs a signed-in user holding a list claim', async () => {
    for (const url of ['/api/label/list', '/api/label/system/list', '/api/account/assignees', '/api/subbrand/list', '/api/product/list', '/api/owner/list']) {
      expect((await get(url)).statusCode).toBe(401);
    }
    const [template] = await server.db.select().from(users).where(eq(users.email, 'staff@demo.test'));
    await server.db.insert(users).values({
      tenantId: 'demo',
      email: 'creator@demo.test',
      firstName: 'Cre',
      lastName: 'Ator',
      roleName: 'Staff',
      passwordHash: template!.passwordHash,
      claims: ['app.createonbehalf'],
      tokensValidAfter: new Date(Date.now() - 60_000),
    });
    const creator = await accessTokenFor(server, 'creator@demo.test');
    expect((await get('/api/label/list', creator)).statusCode).toBe(403);
    expect((await get('/api/product/list', creator)).statusCode).toBe(403);
    // The on-behalf owner picker needs the owners, so app.createonbehalf reads them.
    expect((await get('/api/owner/list', creator)).statusCode).toBe(200);
  });
});
