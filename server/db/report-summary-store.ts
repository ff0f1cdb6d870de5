import type { ReportSummary, ReportTypeFigure } from '../../src/schemas/reports.schema.ts';
import { emptyFilters } from '../../src/domain/list-request.ts';
import {
  categoryOf,
  lastSectionsShown,
  monthsOf,
  notStartedSection,
  otherCategory,
  quarterKeyOf,
  quartersOf,
  reportTypeCategories,
  timeToCompleteBuckets,
} from '../../src/domain/report-periods.ts';
import type { Database } from './client.ts';
import { listWhere, Params, scopeKey, type ListScope } from './applications-list.ts';
import { versionSql } from './list-rows.ts';
import { changeFeedFor } from './change-feed.ts';
import { sqlRunner } from './sql-runner.ts';
import { Lru } from '../lru.ts';

/**
 * The Reports page's figures (issue 30) over the applications the caller may list — the list's own
 * WHERE clause (listWhere), so a report and its drill-down count the same rows.
 *
 * Cached per tenant data version (docs/decisions/001): every write to a listed application moves
 * the version in its own transaction, and an entry is used only while its version is current. On
 * PGlite the change feed knows the version without asking; elsewhere one cheap read per request.
 * A miss is one statement whose reads are index-only scans of the range (migration 0016's indexes).
 * Median and 90th percentile are percentile_cont: linear interpolation between the two nearest
 * completions (the mean of the middle two for an even count), never one side of the middle.
 */

export interface ReportSummaryRequest {
  tenantId: string;
  timeZone: string;
  /** Unused when `list` is 'none'. */
  scope: ListScope;
  list: ReportSummary['List'];
  from: string;
  to: string;
  /** Today in the tenant's time zone: which period is still running. */
  today: string;
}

interface Entry {
  version: number;
  summary: ReportSummary;
}

/** Counts by type, completed in the range by month, time to complete, last sections: one snapshot. */
function summarySql(request: ReportSummaryRequest) {
  const params = new Params();
  const where = listWhere(params, request.tenantId, request.scope, emptyFilters);
  const tenant = '$1';
  const tz = params.add(request.timeZone);
  const lo = `((${params.add(request.from)})::date::timestamp at time zone ${tz})`;
  const hi = `((${params.add(request.to)})::date + 1)::timestamp at time zone ${tz}`;
  const bucketCounts = timeToCompleteBuckets
    .map((bucket, index) => {
      const above = index === 0 ? '' : `seconds >= ${timeToCompleteBuckets[index - 1]?.below ?? 0}`;
      const below = Number.isFinite(bucket.below) ? `seconds < ${bucket.below}` : '';
      return `count(*) filter (where ${[above, below].filter(Boolean).join(' and ') || 'true'})`;
    })
    .join(', ');
  const text = `
    with created as (
      select application_type, date_completed is not null as done, last_section
        from applications where ${where} and date_created >= ${lo} and date_created < ${hi}
    ), completed as (
      select to_char(date_completed at time zone ${tz}, 'YYYY-MM') as month,
             extract(epoch from date_completed - date_created)::float8 as seconds
        from applications where ${where} and date_completed >= ${lo} and date_completed < ${hi}
    )
    select
      (select coalesce(json_agg(json_build_array(application_type, done_n, open_n)), '[]')
         from (select application_type, count(*) filter (where done) as done_n, count(*) filter (where not done) as open_n
                 from created group by application_type) t)::text,
      (select coalesce(json_agg(json_build_array(month, n)), '[]')
         from (select month, count(*) as n from completed group by month) m)::text,
      (select json_build_array(${bucketCounts},
              percentile_cont(0.5) within group (order by seconds),
              percentile_cont(0.9) within group (order by seconds)) from completed)::text,
      (select coalesce(json_agg(json_build_array(section, n)), '[]')
         from (select coalesce(last_section, '${notStartedSection}') as section, count(*) as n
                 from created where not done group by 1 order by 2 desc, 1 limit ${lastSectionsShown}) s)::text,
      ${versionSql(tenant)}::text`;
  return { text, params: params.values };
}

type Counted = [string, number];
const parseJson = (text: string | null | undefined): unknown => JSON.parse(text ?? 'null');
const pairs = (text: string | null | undefined) => parseJson(text) as Counted[];

/** The figures in the wire shape: every category and every period present, zero where nothing counted. */
function shape(request: ReportSummaryRequest, rows: (string | null)[]): ReportSummary {
  const [typesText, monthsText, timesText, sectionsText] = rows;
  const byCategory = new Map<string, ReportTypeFigure>(
    [...reportTypeCategories, otherCategory].map((category) => [
      category,
      { Category: category, Types: category === otherCategory ? [] : [category], Complete: 0, NotComplete: 0 },
    ]),
  );
  for (const [type, done, open] of parseJson(typesText) as [string, number, number][]) {
    const figure = byCategory.get(categoryOf(type));
    if (!figure) continue;
    figure.Complete += done;
    figure.NotComplete += open;
    if (!figure.Types.includes(type)) figure.Types.push(type);
  }
  byCategory.get(otherCategory)?.Types.sort();

  const perMonth = new Map(pairs(monthsText));
  const perQuarter = new Map<string, number>();
  for (const [month, count] of perMonth) perQuarter.set(quarterKeyOf(month), (perQuarter.get(quarterKeyOf(month)) ?? 0) + count);
  const periodsWith = (counts: Map<string, number>, periods: ReturnType<typeof monthsOf>) =>
    periods.map((period) => ({ Label: period.label, From: period.from, To: period.to, Count: counts.get(period.key) ?? 0, Partial: period.partial }));

  const times = parseJson(timesText) as (number | null)[];
  const buckets = timeToCompleteBuckets.map((bucket, index) => ({ Label: bucket.label, Count: times[index] ?? 0 }));
  return {
    From: request.from,
    To: request.to,
    Today: request.today,
    TimeZone: request.timeZone,
    List: request.list,
    Initiated: [...byCategory.values()],
    CompletedByMonth: periodsWith(perMonth, monthsOf(request.from, request.to, request.today)),
    CompletedByQuarter: periodsWith(perQuarter, quartersOf(request.from, request.to, request.today)),
    TimeToComplete: {
      Buckets: buckets,
      MedianSeconds: times[timeToCompleteBuckets.length] ?? null,
      Percentile90Seconds: times[timeToCompleteBuckets.length + 1] ?? null,
    },
    LastSections: pairs(sectionsText).map(([Section, Count]) => ({ Section, Count })),
  };
}

/** Entries kept per server instance (tenant × scope × range): each a few kilobytes. */
const maxEntries = 2_000;

export function createReportSummaries(db: Database) {
  const runner = sqlRunner(db);
  const entries = new Lru<Entry>();
  const pending = new Map<string, Promise<Entry>>();

  async function currentVersion(tenantId: string): Promise<number> {
    const feed = await changeFeedFor(db);
    const known = feed?.dataVersion(tenantId);
    if (known !== undefined) return known;
    const [row] = await runner.textRows(`select ${versionSql('$1')}::text`, [tenantId]);
    const version = Number(row?.[0] ?? 0);
    feed?.noteDataVersion(tenantId, version);
    return version;
  }

  async function compute(request: ReportSummaryRequest): Promise<Entry> {
    const { text, params } = summarySql(request);
    const [row] = await runner.textRows(text, params);
    if (!row) throw new Error('The report summary query returned no row.');
    const version = Number(row[4] ?? 0);
    (await changeFeedFor(db))?.noteDataVersion(request.tenantId, version);
    return { version, summary: shape(request, row) };
  }

  return {
    /** The figures for the request's scope and range, at the tenant's current data version. */
    async summary(request: ReportSummaryRequest): Promise<ReportSummary> {
      // A caller who may list nothing: every figure zero, no query.
      if (request.list === 'none') return shape(request, ['[]', '[]', '[]', '[]']);
      const key = [request.tenantId, scopeKey(request.scope), request.timeZone, request.from, request.to, request.today].join('|');
      const version = await currentVersion(request.tenantId);
      const kept = entries.get(key);
      if (kept && kept.version >= version) return kept.summary;
      // Requests that miss the same entry at once share one computation.
      const pendingKey = `${key}|${version}`;
      let computing = pending.get(pendingKey);
      if (!computing) {
        computing = compute(request).finally(() => pending.delete(pendingKey));
        pending.set(pendingKey, computing);
      }
      const entry = await computing;
      if ((entries.get(key)?.version ?? -1) <= entry.version) entries.set(key, entry);
      entries.evict(() => entries.size > maxEntries);
      return entry.summary;
    },
  };
}

const perDatabase = new WeakMap<Database, ReturnType<typeof createReportSummaries>>();

/** One cache per database handle (the routes of one app share it). */
export function reportSummariesFor(db: Database) {
  let summaries = perDatabase.get(db);
  if (!summaries) {
    summaries = createReportSummaries(db);
    perDatabase.set(db, summaries);
  }
  return summaries;
}
