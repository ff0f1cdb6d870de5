import { ReportSummarySchema, type ReportSummary } from '../schemas/reports.schema.ts';
import { getJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

/** The range a report is asked for: days YYYY-MM-DD in the tenant's time zone, '' for the default. */
export interface ReportRange {
  from: string;
  to: string;
}

/** GET /reports/summary: the Reports page's figures for a range (issue 30). */
export function reportSummary(range: ReportRange): Promise<ReportSummary> {
  const params = new URLSearchParams();
  if (range.from) params.set('from', range.from);
  if (range.to) params.set('to', range.to);
  const query = params.size > 0 ? `?${params}` : '';
  return getJson(`${runtimeConfig().apiBase}/reports/summary${query}`, ReportSummarySchema);
}
