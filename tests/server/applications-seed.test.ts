import { beforeAll, describe, expect, it } from 'vitest';
import { generateApplications, loadFaker, seedAnchor, seedProducts, type SeedContext } from '../../server/db/applications-seed.ts';
import { applicationStatuses } from '../../src/domain/application-status.ts';

const context: SeedContext = {
  tenantId: 'demo',
  tenantName: 'Demo Wealth',
  subBrands: ['Demo Direct', 'Demo Advice'],
  owners: [
    { id: '00000000-0000-4000-8000-000000000001', displayName: 'Ada Adviser', location: 'Sydney', weight: 1 },
    { id: '00000000-0000-4000-8000-000000000002', displayName: 'Bo Broker', location: 'Perth', weight: 1 },
  ],
  assignees: [{ id: '00000000-0000-4000-8000-000000000003', displayName: 'Sam Staff' }],
};

beforeAll(loadFaker);

describe('the application generator', () => {
  it('is deterministic: the same seed gives the same rows, however the range is split', () => {
    const whole = [...generateApplications(context, 42, 0, 25_000)];
    expect([...generateApplications(context, 42, 0, 25_000)]).toEqual(whole);
    const split = [...generateApplications(context, 42, 0, 9_999), ...generateApplications(context, 42, 9_999, 25_000)];
    expect(split).toEqual(whole);
    expect([...generateApplications(context, 7, 0, 10)]).not.toEqual(whole.slice(0, 10));
  });

  it('makes realistic rows: known statuses (and a plain-text one), products from the catalogue, consistent dates', () => {
    const rows = [...generateApplications(context, 42, 0, 5_000)];
    const statuses = new Set(rows.map((row) => String(row.status)));
    for (const status of applicationStatuses) expect(statuses.has(status)).toBe(true);
    expect(statuses.has('Awaiting funds')).toBe(true);
    const codes = new Set(seedProducts.map((product) => product.code));
    for (const row of rows) {
      const products = String(row.product_codes).replace(/[{}]/g, '').split(',').filter(Boolean);
      for (const code of products) expect(codes.has(code)).toBe(true);
      // What migration 0004's trigger writes, which a bulk seed switches off.
      expect(row.product_names).toBe(products.map((code) => seedProducts.find((product) => product.code === code)?.name).join(', '));
      if (row.date_completed !== null) expect(String(row.date_completed) >= String(row.date_created)).toBe(true);
      if (row.status === 'Complete') expect(row.percentage_complete).toBe(100);
      expect(Number(row.user_upload_count)).toBeLessThanOrEqual(Number(row.document_count));
    }
    expect(new Set(rows.map((row) => row.guid)).size).toBe(rows.length);
  });

  it('names no company twice over and completes nothing at the anchor itself (issue 16)', () => {
    const rows = [...generateApplications(context, 42, 0, 5_000)];
    const companies = rows.map((row) => String(row.account_name)).filter((name) => name.includes('Pty Ltd'));
    expect(companies.length).toBeGreaterThan(0);
    for (const name of companies) expect(name).not.toMatch(/Pty Ltd.*Pty Ltd/);
    const completed = rows.flatMap((row) => (row.date_completed === null ? [] : [new Date(String(row.date_completed)).getTime()]));
    expect(completed.length).toBeGreaterThan(100);
    for (const time of completed) expect(time).toBeLessThan(seedAnchor.getTime());
    const midnights = completed.filter((time) => time % 86_400_000 === 0).length;
    expect(midnights).toBeLessThanOrEqual(1);
  });
});
