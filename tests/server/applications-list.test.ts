import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accessTokenFor, api, startTestServer, type TestServer } from './harness.ts';
import {
  expectedOrder,
  listAll,
  listPage,
  listUrl,
  matches,
  ownerUserIds,
  tenantApplications,
  type AppRow,
  type OracleFilters,
} from './applications-fixtures.ts';
import { sortableColumns } from '../../src/domain/list-columns.ts';
import { users } from '../../server/db/schema.ts';

let server: TestServer;
let admin: string;
let apps: AppRow[];
const all = '/api/application/list/all';

beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
  apps = await tenantApplications(server);
});
afterAll(() => server.close());

/** The list as the API gives it, against the oracle: same ids, same order (ID desc), same count. */
async function expectFiltered(filters: OracleFilters) {
  const { mustHaveAllSelectedProducts, q, ...arrays } = filters;
  const params: Record<string, unknown> = { ...arrays, q, mustHaveAllSelectedProducts: mustHaveAllSelectedProducts === undefined ? undefined : String(mustHaveAllSelectedProducts) };
  const { rows, totalRows, maxPage } = await listAll(server, admin, all, params);
  const expected = expectedOrder(apps.filter((row) => matches(row, filters)), 'ID', 'desc');
  expect(rows.map((row) => row.ApplicationID)).toEqual(expected);
  expect(totalRows).toBe(expected.length);
  expect(maxPage).toBe(Math.ceil(expected.length / 200));
  return expected;
}

const valuesOf = (pick: (row: AppRow) => string) => [...new Set(apps.map(pick))].filter(Boolean).sort();

describe('the seeded demo tenant', () => {
  it('has a few thousand applications, some cancelled, every filter value in use', () => {
    expect(apps.length).toBe(3000);
    expect(apps.some((row) => row.status === 'Cancelled')).toBe(true);
    expect(apps.some((row) => row.label === '') && apps.some((row) => row.label !== '')).toBe(true);
    expect(apps.some((row) => row.assigneeUserId === null) && apps.some((row) => row.assigneeUserId !== null)).toBe(true);
    expect(apps.some((row) => row.productCodes.length === 0) && apps.some((row) => row.productCodes.length > 2)).toBe(true);
  });
});

describe('GET /api/application/list/all filters', () => {
  it('lists every application but the cancelled ones, newest id first', async () => {
    const expected = await expectFiltered({});
    expect(expected.length).toBe(apps.filter((row) => row.status !== 'Cancelled').length);
  });

  it('never shows cancelled applications, even when asked for them', async () => {
    const { rows, totalRows } = await listAll(server, admin, all, { status: ['Cancelled'] });
    expect(rows).toEqual([]);
    expect(totalRows).toBe(0);
  });

  it('filters by status', async () => {
    expect((await expectFiltered({ status: ['Complete', 'Locked'] })).length).toBeGreaterThan(0);
  });

  it('filters by label, (None) matching applications without one', async () => {
    const [label] = valuesOf((row) => row.label);
    expect((await expectFiltered({ label: [label!] })).length).toBeGreaterThan(0);
    const none = await expectFiltered({ label: [''] });
    expect(none.length).toBeGreaterThan(0);
    await expectFiltered({ label: ['', label!] });
  });

  it('filters by system label (tag), (None) included', async () => {
    const [tag] = valuesOf((row) => row.systemLabel);
    expect((await expectFiltered({ sysLabel: [tag!] })).length).toBeGreaterThan(0);
    expect((await expectFiltered({ sysLabel: [''] })).length).toBeGreaterThan(0);
  });

  it('filters by assignee, (None) matching unassigned applications', async () => {
    const [assignee] = valuesOf((row) => row.assigneeUserId ?? '');
    expect((await expectFiltered({ assignee: [assignee!] })).length).toBeGreaterThan(0);
    expect((await expectFiltered({ assignee: [''] })).length).toBeGreaterThan(0);
    expect((await expectFiltered({ assignee: ['', assignee!] })).length).toBeGreaterThan(0);
  });

  it('filters by sub-brand, (None) included', async () => {
    const [subBrand] = valuesOf((row) => row.subBrandName);
    expect((await expectFiltered({ subBrand: [subBrand!] })).length).toBeGreaterThan(0);
    expect((await expectFiltered({ subBrand: [''] })).length).toBeGreaterThan(0);
  });

  it('filters by products: any of them, or all of them with mustHaveAllSelectedProducts', async () => {
    const any = await expectFiltered({ products: ['MF', 'SUPER'] });
    const both = await expectFiltered({ products: ['MF', 'SUPER'], mustHaveAllSelectedProducts: true });
    expect(both.length).toBeGreaterThan(0);
    expect(both.length).toBeLessThan(any.length);
    expect((await expectFiltered({ products: [''] })).length).toBeGreaterThan(0);
    await expectFiltered({ products: ['', 'TD'] });
    expect(await expectFiltered({ products: ['', 'TD'], mustHaveAllSelectedProducts: true })).toEqual([]);
  });

  it('combines filters (all must hold)', async () => {
    const combined = await expectFiltered({
      status: ['Complete', 'Adviser edit', 'Documents pending'],
      label: ['', 'Urgent', 'VIP'],
      sysLabel: [''],
      subBrand: valuesOf((row) => row.subBrandName).slice(0, 2),
      products: ['MF', 'TD', 'CMA'],
    });
    expect(combined.length).toBeGreaterThan(0);
    await expectFiltered({ status: ['Complete'], assignee: [''], products: ['SUPER'], mustHaveAllSelectedProducts: true, q: 'a' });
  });

  it('treats an unknown filter value as matching nothing, not as an error', async () => {
    expect(await expectFiltered({ label: ['No such label'] })).toEqual([]);
  });
});

describe('search (q)', () => {
  it('finds by client name, account name, e-mail, external id and account number, as word prefixes', async () => {
    const sample = apps.find((row) => row.status === 'Complete' && row.externalId !== '' && row.accountNumber !== '')!;
    const surname = sample.clientName.split(' ').at(-1)!;
    for (const q of [surname, surname.slice(0, 3).toUpperCase(), sample.primaryEmail, sample.externalId, sample.accountNumber, sample.accountName]) {
      const found = await expectFiltered({ q });
      expect(found).toContain(sample.id);
    }
  });

  it('finds by application id', async () => {
    const sample = apps.find((row) => row.status !== 'Cancelled')!;
    expect(await expectFiltered({ q: String(sample.id) })).toContain(sample.id);
  });

  it('needs every word to match and combines with filters', async () => {
    const sample = apps.find((row) => row.status === 'Complete' && row.clientName.split(' ').length === 2)!;
    const [first, last] = sample.clientName.split(' ');
    expect(await expectFiltered({ q: `${first} ${last}` })).toContain(sample.id);
    expect(await expectFiltered({ q: `${first} ${last}`, status: ['Complete'] })).toContain(sample.id);
    expect(await expectFiltered({ q: `${first} zzzzqqq` })).toEqual([]);
  });

  it('ignores punctuation-only searches', async () => {
    await expectFiltered({ q: ' -- ' });
  });
});

describe('sorting', () => {
  for (const column of sortableColumns) {
    it(`sorts by ${column} both ways, id breaking ties`, async () => {
      const listed = apps.filter((row) => row.status !== 'Cancelled');
      for (const direction of ['desc', 'asc'] as const) {
        const { rows } = await listAll(server, admin, all, { sortBy: column, sortType: direction });
        expect(rows.map((row) => row.ApplicationID)).toEqual(expectedOrder(listed, column, direction));
      }
    });
  }

  it('sorts a filtered search too', async () => {
    const filters = { status: ['Complete', 'Locked'], q: 'a' };
    const { rows } = await listAll(server, admin, all, { ...filters, sortBy: 'AccountName', sortType: 'asc' });
    expect(rows.map((row) => row.ApplicationID)).toEqual(expectedOrder(apps.filter((row) => matches(row, filters)), 'AccountName', 'asc'));
  });
});

describe('pagination', () => {
  const listed = () => expectedOrder(apps.filter((row) => row.status !== 'Cancelled'), 'ID', 'desc');

  it('pages 20 rows by default, with MaxPage and TotalRows', async () => {
    const page = await listPage(server, admin, all, {});
    expect(page.Applications.map((row) => row.ApplicationID)).toEqual(listed().slice(0, 20));
    expect(page.TotalRows).toBe(listed().length);
    expect(page.MaxPage).toBe(Math.ceil(listed().length / 20));
  });

  it('honours rowsPerPage, from 1 to 200', async () => {
    for (const rowsPerPage of [1, 7, 200]) {
      const page = await listPage(server, admin, all, { pageNo: 3, rowsPerPage });
      expect(page.Applications.map((row) => row.ApplicationID)).toEqual(listed().slice(2 * rowsPerPage, 3 * rowsPerPage));
      expect(page.MaxPage).toBe(Math.ceil(listed().length / rowsPerPage));
    }
  });

  it('gives a short last page, and an empty page past the end', async () => {
    const rowsPerPage = 7;
    const maxPage = Math.ceil(listed().length / rowsPerPage);
    const last = await listPage(server, admin, all, { pageNo: maxPage, rowsPerPage });
    expect(last.Applications.map((row) => row.ApplicationID)).toEqual(listed().slice((maxPage - 1) * rowsPerPage));
    const past = await listPage(server, admin, all, { pageNo: maxPage + 1, rowsPerPage });
    expect(past.Applications).toEqual([]);
    expect(past.TotalRows).toBe(listed().length);
    const far = await listPage(server, admin, all, { pageNo: 99_999, rowsPerPage });
    expect(far.Applications).toEqual([]);
  });

  it('serves every page of every sort the same whichever end it is read from', async () => {
    // Pages near the end are read backwards from the last row; they must join up with the front.
    const expected = expectedOrder(apps.filter((row) => row.status !== 'Cancelled'), 'ClientName', 'asc');
    const rowsPerPage = 50;
    const maxPage = Math.ceil(expected.length / rowsPerPage);
    const order = [maxPage, 1, maxPage - 1, Math.ceil(maxPage / 2), 2, maxPage - 2];
    for (const pageNo of order) {
      const page = await listPage(server, admin, all, { pageNo, rowsPerPage, sortBy: 'ClientName', sortType: 'asc' });
      expect(page.Applications.map((row) => row.ApplicationID)).toEqual(expected.slice((pageNo - 1) * rowsPerPage, pageNo * rowsPerPage));
    }
  });

  it('answers 0 rows and MaxPage 0 when nothing matches', async () => {
    const page = await listPage(server, admin, all, { q: 'zzzzqqqxxx' });
    expect(page).toEqual({ Applications: [], MaxPage: 0, TotalRows: 0 });
  });
});

describe('bad parameters', () => {
  it.each([
    [{ sortBy: 'Nope' }, 'sortBy: unknown column Nope'],
    [{ sortType: 'sideways' }, 'sortType: must be asc or desc'],
    [{ status: '["Complete"' }, 'status: must be a JSON array of strings'],
    [{ label: 'Urgent' }, 'label: must be a JSON array of strings'],
    [{ products: '[1]' }, 'products: must be a JSON array of strings'],
    [{ assignee: '["not-a-user"]' }, 'assignee: values must be user ids (or empty for none)'],
    [{ pageNo: '0' }, 'pageNo: must be a whole number of 1 or more'],
    [{ pageNo: 'two' }, 'pageNo: must be a whole number of 1 or more'],
    [{ rowsPerPage: '0' }, 'rowsPerPage: must be a whole number of 1 or more'],
    [{ rowsPerPage: '1000' }, 'rowsPerPage: must be at most 200'],
    [{ mustHaveAllSelectedProducts: 'maybe' }, 'mustHaveAllSelectedProducts: must be true or false'],
  ])('answers 400 for %j, naming the parameter', async (params, message) => {
    const response = await api(server, 'GET', listUrl(all, params), { token: admin });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, message });
  });

  it('answers 400 for a parameter given twice, in the lists, the exports and the export links', async () => {
    for (const [method, path] of [
      ['GET', '/api/application/list'],
      ['GET', all],
      ['GET', '/api/application/export/my'],
      ['GET', '/api/application/export/all'],
      ['POST', '/api/application/export/my/link'],
      ['POST', '/api/application/export/all/link'],
    ] as const) {
      const response = await api(server, method, `${path}?q=Nguyen&q=lan`, { token: admin });
      expect(response.statusCode, `${method} ${path}`).toBe(400);
      expect(response.json().message, `${method} ${path}`).toMatch(/^querystring\/q /);
    }
  });
});

describe('GET /api/application/list (My Apps)', () => {
  it('lists what the user owns or is assigned to', async () => {
    const manager = await accessTokenFor(server, 'manager@demo.test');
    const [me] = await server.db.select().from(users).where(eq(users.email, 'manager@demo.test'));
    const owners = await ownerUserIds(server);
    const mine = apps.filter(
      (row) => row.status !== 'Cancelled' && ((row.ownerId && owners.get(row.ownerId) === me!.id) || row.assigneeUserId === me!.id),
    );
    expect(mine.some((row) => row.assigneeUserId === me!.id && owners.get(row.ownerId ?? '') !== me!.id)).toBe(true);
    expect(mine.some((row) => owners.get(row.ownerId ?? '') === me!.id && row.assigneeUserId !== me!.id)).toBe(true);
    const { rows, totalRows } = await listAll(server, manager, '/api/application/list', {});
    expect(rows.map((row) => row.ApplicationID)).toEqual(expectedOrder(mine, 'ID', 'desc'));
    expect(totalRows).toBe(mine.length);

    const filtered = await listAll(server, manager, '/api/application/list', { status: ['Complete'], sortBy: 'AccountName', sortType: 'asc' });
    expect(filtered.rows.map((row) => row.ApplicationID)).toEqual(
      expectedOrder(mine.filter((row) => row.status === 'Complete'), 'AccountName', 'asc'),
    );
  });
});

describe('the answer', () => {
  it('carries every list row field of AM §3, products by name', async () => {
    const page = await listPage(server, admin, all, { products: ['MF'], rowsPerPage: 1 });
    const [row] = page.Applications;
    const source = apps.find((app) => app.id === row!.ApplicationID)!;
    expect(row).toMatchObject({
      ApplicationGuid: source.guid,
      AccountName: source.accountName,
      PrimaryEmail: source.primaryEmail,
      ClientName: source.clientName,
      Status: source.status,
      AdviserName: source.adviserName,
      DateCreatedTimestamp: Math.floor(source.dateCreated.getTime() / 1000),
      DateCompletedTimestamp: source.dateCompleted ? Math.floor(source.dateCompleted.getTime() / 1000) : -1,
      InvestmentAmount: Number(source.investmentAmount),
      AssigneeUserId: source.assigneeUserId,
    });
    expect(row!.ProductDisplayNameList).toContain('Managed Funds');
    expect(row!.ProductDictionary).toContainEqual({ Name: 'Managed Funds', Value: 'MF' });
  });
});
