import * as z from 'zod/mini';

/**
 * GET /api/reports/summary (issue 30, SUV §2 Reports page). from / to are days (YYYY-MM-DD,
 * inclusive) in the tenant's time zone; either may be left out (report-periods.ts: the last twelve
 * months up to today). Checked by the route, which names the parameter at fault.
 */
export const ReportSummaryQuerySchema = z.object({
  from: z.optional(z.string()),
  to: z.optional(z.string()),
});
export type ReportSummaryQuery = z.infer<typeof ReportSummaryQuerySchema>;

/** One bar group of Initiated Applications (and one slice of Application Types Created). */
export const ReportTypeFigureSchema = z.object({
  /** One of the five types of SUV §2, or 'Other'. */
  Category: z.string(),
  /** The ApplicationType values counted here (several for 'Other'): the drill-down's filter. */
  Types: z.array(z.string()),
  Complete: z.int(),
  NotComplete: z.int(),
});
export type ReportTypeFigure = z.infer<typeof ReportTypeFigureSchema>;

/** A month or quarter of Completed Applications, cut in the tenant's time zone and clipped to the range. */
export const ReportPeriodSchema = z.object({
  Label: z.string(),
  From: z.string(),
  To: z.string(),
  Count: z.int(),
  /** The period is not whole: still running, or cut by the range. */
  Partial: z.boolean(),
});
export type ReportPeriod = z.infer<typeof ReportPeriodSchema>;

export const ReportBucketSchema = z.object({ Label: z.string(), Count: z.int() });
export type ReportBucket = z.infer<typeof ReportBucketSchema>;

export const ReportSectionSchema = z.object({ Section: z.string(), Count: z.int() });
export type ReportSection = z.infer<typeof ReportSectionSchema>;

export const ReportSummarySchema = z.object({
  From: z.string(),
  To: z.string(),
  /** Today in the tenant's time zone (the partial period). */
  Today: z.string(),
  TimeZone: z.string(),
  /** The list a drill-down opens: All Apps, My Apps, or none (the caller may list nothing). */
  List: z.enum(['all', 'my', 'none']),
  /** Applications created in the range, by type, completed (at any time) or not. */
  Initiated: z.array(ReportTypeFigureSchema),
  /** Applications completed in the range. */
  CompletedByMonth: z.array(ReportPeriodSchema),
  CompletedByQuarter: z.array(ReportPeriodSchema),
  /** Applications completed in the range, by time from creation to completion. */
  TimeToComplete: z.object({
    Buckets: z.array(ReportBucketSchema),
    MedianSeconds: z.nullable(z.number()),
    Percentile90Seconds: z.nullable(z.number()),
  }),
  /** Incomplete applications created in the range, by the last form section they reached: the top 5. */
  LastSections: z.array(ReportSectionSchema),
});
export type ReportSummary = z.infer<typeof ReportSummarySchema>;
