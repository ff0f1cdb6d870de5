import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, api, hosts, startTestServer, userWith, type TestServer } from './harness.ts';
import { ReportSummarySchema, type ReportSummary } from '../../src/schemas/reports.schema.ts';
import { ApplicationListResponseSchema } from '../../src/schemas/applications.schema.ts';
import { sqlRunner } from '../../server/db/sql-runner.ts';

/**
 * GET /api/reports/summary against an oracle: the tenant's rows read with plain SQL (days written in
 * the tenant's time zone by the database) and counted here in JavaScript — not the production query.
 */

let server: TestServer;
let admin: string;
const timeZone = 'Australia/Sydney';

interface OracleRow {
  type: string;
  created: string;
  completed: string | null;
  seconds: number | null;
  section: string | null;
}

async function oracleRows(tenantId: string, visibleTo?: string): Promise<OracleRow[]> {
  const visibility = visibleTo
    ? `and (assignee_user_id = '${visibleTo}' or owner_id in (select id from application_owners where global_user_id = '${visibleTo}'))`
    : '';
  const rows = await sqlRunner(server.db).textRows(
    `select application_type, to_char(date_created at time zone '${timeZone}', 'YYYY-MM-DD'),
            to_char(date_completed at time zone '${timeZone}', 'YYYY-MM-DD'),
            extract(epoch from date_completed - date_created)::text, last_section
       from applications where tenant_id = $1 and status <> 'Cancelled' ${visibility}`,
    [tenantId],
  );
  return rows.map(([type, created, completed, seconds, section]) => ({
    type: type ?? '',
    created: created ?? '',
    completed: completed ?? null,
    seconds: seconds === null || seconds === undefined ? null : Number(seconds),
    section: section ?? null,
  }));
}

const five = ['Individual', 'Joint', 'Company', 'Trust Individual', 'Trust Corporate'];

/** Every figure of the summary, computed from the raw rows. */
function expected(rows: OracleRow[], from: string, to: string) {
  const created = rows.filter((row) => row.created >= from && row.created <= to);
  const completed = rows.filter((row) => row.completed !== null && row.completed >= from && row.completed <= to);
  const category = (type: string) => (five.includes(type) ? type : 'Other');
  const initiated = [...five, 'Other'].map((name) => {
    const mine = created.filter((row) => category(row.type) === name);
    return {
      Category: name,
      Complete: mine.filter((row) => row.completed !== null).length,
      NotComplete: mine.filter((row) => row.completed === null).length,
    };
  });
  const byMonth = new Map<string, number>();
  for (const row of completed) byMonth.set(row.completed!.slice(0, 7), (byMonth.get(row.completed!.slice(0, 7)) ?? 0) + 1);
  const seconds = completed.map((row) => row.seconds!).sort((a, b) => a - b);
  // Linear interpolation between the nearest ranks (PostgreSQL's percentile_cont, R's type 7).
  const quantile = (p: number) => {
    if (seconds.length === 0) return null;
    const position = p * (seconds.length - 1);
    const below = seconds[Math.floor(position)]!;
    const above = seconds[Math.ceil(position)]!;
    return below + (above - below) * (position - Math.floor(position));
  };
  const hours = (h: number) => h * 3600;
  const buckets = [
    seconds.filter((s) => s < hours(0.5)).length,
    seconds.filter((s) => s >= hours(0.5) && s < hours(1)).length,
    seconds.filter((s) => s >= hours(1) && s < hours(2)).length,
    seconds.filter((s) => s >= hours(2) && s < hours(6)).length,
    seconds.filter((s) => s >= hours(6)).length,
  ];
  const sections = new Map<string, number>();
  for (const row of created.filter((r) => r.completed === null)) {
    const name = row.section ?? 'Not started';
    sections.set(name, (sections.get(name) ?? 0) + 1);
  }
  const top = [...sections].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5);
  return { initiated, byMonth, buckets, median: quantile(0.5), p90: quantile(0.9), top, completedTotal: completed.length };
}

async function summary(token: string, query = '', host: string = hosts.demo): Promise<ReportSummary> {
  const response = await api(server, 'GET', `/api/reports/summary${query}`, { token, host });
  expect(response.statusCode, response.body).toBe(200);
  return ReportSummarySchema.parse(response.json());
}

/** Interpolated seconds are fractional: equal to the millisecond, or both absent. */
function expectSeconds(actual: number | null, want: number | null) {
  if (want === null) expect(actual).toBeNull();
  else expect(actual).toBeCloseTo(want, 3);
}

function expectFigures(actual: ReportSummary, rows: OracleRow[]) {
  const want = expected(rows, actual.From, actual.To);
  expect(actual.Initiated.map(({ Category, Complete, NotComplete }) => ({ Category, Complete, NotComplete }))).toEqual(want.initiated);
  expect(actual.CompletedByMonth.reduce((sum, period) => sum + period.Count, 0)).toBe(want.completedTotal);
  for (const period of actual.CompletedByMonth) expect(period.Count).toBe(want.byMonth.get(period.From.slice(0, 7)) ?? 0);
  expect(actual.CompletedByQuarter.reduce((sum, period) => sum + period.Count, 0)).toBe(want.completedTotal);
  expect(actual.TimeToComplete.Buckets.map((bucket) => bucket.Count)).toEqual(want.buckets);
  expectSeconds(actual.TimeToComplete.MedianSeconds, want.median);
  expectSeconds(actual.TimeToComplete.Percentile90Seconds, want.p90);
  expect(actual.LastSections.map(({ Section, Count }) => [Section, Count])).toEqual(want.top);
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
});
afterAll(() => server.close());

describe('GET /api/reports/summary', () => {
  it('answers 401 without a token, 403 without reports.login, 400 naming a bad day', async () => {
    expect((await api(server, 'GET', '/api/reports/summary')).statusCode).toBe(401);
    const staff = await accessTokenFor(server, 'staff@demo.test');
    const refused = await api(server, 'GET', '/api/reports/summary', { token: staff });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('reports.login');
    for (const [query, name] of [
      ['?from=2026-02-30', 'from'],
      ['?to=yesterday', 'to'],
      ['?from=2026-03-01&to=2026-02-01', 'to'],
      ['?from=2000-01-01&to=2026-01-01', 'from'],
    ] as const) {
      const response = await api(server, 'GET', `/api/reports/summary${query}`, { token: admin });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message.startsWith(`${name}:`), response.body).toBe(true);
    }
  });

  it('counts every figure of the default twelve months as the oracle does, every month present', async () => {
    const actual = await summary(admin);
    expect(actual.List).toBe('all');
    expect(actual.TimeZone).toBe(timeZone);
    expect(actual.CompletedByMonth).toHaveLength(12);
    expect(actual.CompletedByMonth[0]?.From.endsWith('-01')).toBe(true);
    expect(actual.To).toBe(actual.Today);
    // The running month is partial, the whole ones are not.
    expect(actual.CompletedByMonth.at(-1)?.Partial).toBe(true);
    expect(actual.CompletedByMonth.slice(0, -1).every((period) => !period.Partial)).toBe(true);
    expectFigures(actual, await oracleRows('demo'));
  });

  it('counts a three-year range the same way, with every type among the five and Other', async () => {
    const actual = await summary(admin, '?from=2023-10-01&to=2026-11-01');
    const rows = await oracleRows('demo');
    expectFigures(actual, rows);
    expect(actual.CompletedByQuarter.map((period) => period.Label).slice(0, 2)).toEqual(['Q4 2023', 'Q1 2024']);
    for (const figure of actual.Initiated) expect(figure.Complete + figure.NotComplete).toBeGreaterThan(0);
    expect(actual.Initiated.find((figure) => figure.Category === 'Other')?.Types).toEqual(['Partnership']);
    expect(actual.TimeToComplete.Buckets.every((bucket) => bucket.Count > 0)).toBe(true);
    expect(actual.LastSections).toHaveLength(5);
  });

  it('shows a month with no completions as zero', async () => {
    // The seed completes nothing after its anchor, 1 Nov 2026 (UTC).
    const actual = await summary(admin, '?from=2026-11-02&to=2026-11-20');
    expect(actual.CompletedByMonth).toEqual([{ Label: 'Nov 2026', From: '2026-11-02', To: '2026-11-20', Count: 0, Partial: true }]);
    expect(actual.TimeToComplete).toEqual({
      Buckets: ['0-0.5h', '0.5-1h', '1-2h', '2-6h', 'Over 6h'].map((Label) => ({ Label, Count: 0 })),
      MedianSeconds: null,
      Percentile90Seconds: null,
    });
  });

  it('drills down: the list with the figure\'s filters totals exactly the figure', async () => {
    const actual = await summary(admin, '?from=2025-01-01&to=2025-12-31');
    const total = async (params: Record<string, string>) => {
      const response = await api(server, 'GET', `/api/application/list/all?${new URLSearchParams(params)}`, { token: admin });
      expect(response.statusCode, response.body).toBe(200);
      return ApplicationListResponseSchema.parse(response.json()).TotalRows;
    };
    for (const figure of actual.Initiated) {
      const base = { applicationType: JSON.stringify(figure.Types), createdFrom: actual.From, createdTo: actual.To };
      expect(await total({ ...base, completed: 'true' })).toBe(figure.Complete);
      expect(await total({ ...base, completed: 'false' })).toBe(figure.NotComplete);
      expect(await total(base)).toBe(figure.Complete + figure.NotComplete);
    }
    for (const period of [...actual.CompletedByMonth.slice(0, 3), ...actual.CompletedByQuarter]) {
      expect(await total({ completedFrom: period.From, completedTo: period.To })).toBe(period.Count);
    }
  });

  it('counts only what a My Apps user may list, and follows their writes at once', async () => {
    const { user, token } = await userWith(server, 'reporter@demo.test', ['view.myapps', 'reports.login']);
    const empty = await summary(token, '?from=2023-01-01&to=2026-11-27');
    expect(empty.List).toBe('my');
    expect(empty.Initiated.every((figure) => figure.Complete + figure.NotComplete === 0)).toBe(true);
    await sqlRunner(server.db).textRows(
      `update applications set assignee_user_id = $1 where id in (select id from applications where tenant_id = 'demo' order by id limit 40)`,
      [user.id],
    );
    const mine = await summary(token, '?from=2023-01-01&to=2026-11-27');
    const rows = await oracleRows('demo', user.id);
    expect(rows.length).toBeGreaterThan(20);
    expectFigures(mine, rows);
    // A user who may list nothing sees nothing, and no list to drill into.
    const { token: none } = await userWith(server, 'no-list@demo.test', ['reports.login']);
    const nothing = await summary(none, '?from=2023-01-01&to=2026-11-27');
    expect(nothing.List).toBe('none');
    expect(nothing.Initiated.every((figure) => figure.Complete + figure.NotComplete === 0)).toBe(true);
  });

  it('takes median and 90th percentile by linear interpolation: odd and even counts, written out', async () => {
    // Completions of known durations, alone in March 2024 for each user's My Apps.
    const hour = 3_600;
    const completions = async (email: string, durations: number[], offset: number) => {
      const { user, token } = await userWith(server, email, ['view.myapps', 'reports.login']);
      await sqlRunner(server.db).textRows(
        `with picked as (
           select id, row_number() over (order by id desc) - 1 as n
             from (select id from applications where tenant_id = 'demo' and status not in ('Cancelled', 'Depersonalised')
                    order by id desc offset ${offset} limit ${durations.length}) t)
         update applications a set assignee_user_id = $1, status = 'Complete',
                date_created = timestamptz '2024-03-10 01:00:00+00' + picked.n * interval '1 day',
                date_completed = timestamptz '2024-03-10 01:00:00+00' + picked.n * interval '1 day' + ($2::float8[])[picked.n + 1] * interval '1 second'
           from picked where a.id = picked.id`,
        [user.id, `{${durations.join(',')}}`],
      );
      return summary(token, '?from=2024-03-01&to=2024-03-31');
    };
    // 1 h, 2 h, 4 h, 10 h: the median is halfway between 2 h and 4 h (not 2 h), the 90th
    // percentile 0.7 of the way from 4 h to 10 h (position 0.9 × 3 = 2.7).
    const even = await completions('quantiles-even@demo.test', [hour, 2 * hour, 4 * hour, 10 * hour], 0);
    expect(even.TimeToComplete.Buckets.map((bucket) => bucket.Count)).toEqual([0, 0, 1, 2, 1]);
    expect(even.TimeToComplete.MedianSeconds).toBeCloseTo(10_800, 3);
    expect(even.TimeToComplete.Percentile90Seconds).toBeCloseTo(29_520, 3);
    // 1 h, 2 h, 10 h: the median is the middle one, the 90th percentile 0.8 of the way from 2 h to 10 h.
    const odd = await completions('quantiles-odd@demo.test', [hour, 2 * hour, 10 * hour], 10);
    expect(odd.TimeToComplete.Buckets.map((bucket) => bucket.Count)).toEqual([0, 0, 1, 1, 1]);
    expect(odd.TimeToComplete.MedianSeconds).toBeCloseTo(7_200, 3);
    expect(odd.TimeToComplete.Percentile90Seconds).toBeCloseTo(30_240, 3);
  });

  it('refuses a range that cannot be reported with a reason a person can read, and accepts its edges', async () => {
    const today = (await summary(admin)).Today;
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const refusals: [string, string][] = [
      ['?from=2026-02-30&to=2026-03-31', 'from: must be a real day written YYYY-MM-DD'],
      ['?from=2026-03-01&to=2026-02-01', 'to: must not be before from (2026-03-01)'],
      // 3,661 days from 1 Jan 2016.
      ['?from=2016-01-01&to=2026-01-09', 'from: the range is at most 3,660 days (this one is 3,661)'],
      [`?from=2026-01-01&to=${tomorrow}`, `to: must not be after today (${today})`],
      [`?from=${tomorrow}`, `from: must not be after today (${today})`],
    ];
    for (const [query, message] of refusals) {
      const response = await api(server, 'GET', `/api/reports/summary${query}`, { token: admin });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toBe(message);
    }
    // The edges themselves are reported: exactly 3,660 days, a range ending today, one day.
    expect((await summary(admin, '?from=2016-01-01&to=2026-01-08')).To).toBe('2026-01-08');
    expect((await summary(admin, `?from=2026-01-01&to=${today}`)).To).toBe(today);
    expect((await summary(admin, `?from=${today}&to=${today}`)).CompletedByMonth).toHaveLength(1);
  });

  it('marks a month partial only when the range cuts it or it is still running', async () => {
    const actual = await summary(admin, '?from=2025-01-15&to=2025-04-30');
    expect(actual.CompletedByMonth.map(({ Label, Partial }) => [Label, Partial])).toEqual([
      ['Jan 2025', true],
      ['Feb 2025', false],
      ['Mar 2025', false],
      ['Apr 2025', false],
    ]);
    expect(actual.CompletedByQuarter.map(({ Label, Partial }) => [Label, Partial])).toEqual([
      ['Q1 2025', true],
      ['Q2 2025', true],
    ]);
  });

  it('keeps tenants apart: acme counts its own applications, and a demo token is refused on acme', async () => {
    const acme = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
    const actual = await summary(acme, '?from=2023-01-01&to=2026-11-27', hosts.acme);
    expectFigures(actual, await oracleRows('acme'));
    const crossed = await api(server, 'GET', '/api/reports/summary', { token: admin, host: hosts.acme });
    expect(crossed.statusCode).toBe(401);
  });
});
