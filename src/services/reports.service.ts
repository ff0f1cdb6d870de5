import { ReportSummarySchema, type ReportSummary } from '../schemas/reports.schema.ts';
import { ApiErrorSchema } from '../schemas/errors.schema.ts';
import { getJson, HttpError } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

/** The range a report is asked for: days YYYY-MM-DD in the tenant's time zone, '' for the default. */
export interface ReportRange {
  from: string;
  to: string;
}

/**
 * The server refused the range (400) and said why: asking again cannot succeed, so the page shows
 * the reason instead of Retry (issue 39 point 5).
 */
export class ReportRangeRefused extends Error {
  override readonly name = 'ReportRangeRefused';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** GET /reports/summary: the Reports page's figures for a range (issue 30). */
export async function reportSummary(range: ReportRange): Promise<ReportSummary> {
  const params = new URLSearchParams();
  if (range.from) params.set('from', range.from);
  if (range.to) params.set('to', range.to);
  const query = params.size > 0 ? `?${params}` : '';
  try {
    return await getJson(`${runtimeConfig().apiBase}/reports/summary${query}`, ReportSummarySchema);
  } catch (error) {
    const refusal = error instanceof HttpError && error.status === 400 ? ApiErrorSchema.safeParse(error.body) : undefined;
    if (refusal?.success) throw new ReportRangeRefused(refusal.data.message);
    throw error;
  }
}
