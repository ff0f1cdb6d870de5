import type { ReportSummary } from '../schemas/reports.schema.ts';
import type { ApplicationListQuery } from './application-query.ts';
import { csvRecord } from './list-csv.ts';
import { durationLabel } from './report-periods.ts';

/**
 * The Reports page's five charts as tables (issue 30): what each chart plots, cell for cell. The
 * "View as table" view, the CSV and the chart are all drawn from these, so they cannot disagree;
 * a figure's drill-down is the list filter that lists exactly the applications it counts.
 */

export type DrillDown = Partial<Pick<ApplicationListQuery, 'applicationType' | 'createdFrom' | 'createdTo' | 'completedFrom' | 'completedTo' | 'completed'>>;

export interface ReportCell {
  value: string | number;
  drillDown?: DrillDown;
}

export interface ReportTable {
  /** The chart's title (SUV §2), also the table's caption. */
  title: string;
  /** File name of the CSV download. */
  fileName: string;
  columns: string[];
  /** Each row: a label, then the figures. */
  rows: ReportCell[][];
  /** A line below the chart (Time to Complete: median and 90th percentile). */
  note?: string;
  /**
   * Said in place of the chart when it would plot nothing (every figure zero): a blank pie or
   * bars on a meaningless axis read as a failure (issue 39 point 6).
   */
  empty?: string;
}

/** The words of an empty chart: what it counts, and that the range holds none. */
export const emptyTexts = {
  created: 'No applications in this range',
  completed: 'No applications completed in this range',
  incomplete: 'No incomplete applications in this range',
} as const;

const noFigures = (rows: ReportCell[][]) => rows.every((row) => row.slice(1).every((cell) => cell.value === 0));
const emptyWhen = (rows: ReportCell[][], text: string) => (noFigures(rows) ? { empty: text } : {});

export type CompletedPeriod = 'month' | 'quarter';

const created = (summary: ReportSummary): DrillDown => ({ createdFrom: summary.From, createdTo: summary.To });

export function initiatedTable(summary: ReportSummary): ReportTable {
  const rows = summary.Initiated.map((figure): ReportCell[] => {
    const base = { ...created(summary), applicationType: figure.Types };
    return [
      { value: figure.Category },
      { value: figure.Complete, drillDown: { ...base, completed: 'true' } },
      { value: figure.NotComplete, drillDown: { ...base, completed: 'false' } },
    ];
  });
  return {
    title: 'Initiated Applications',
    fileName: 'initiated-applications.csv',
    columns: ['Application type', 'Complete', 'Not Complete'],
    rows,
    ...emptyWhen(rows, emptyTexts.created),
  };
}

export function typesCreatedTable(summary: ReportSummary): ReportTable {
  const rows = summary.Initiated.map((figure): ReportCell[] => [
    { value: figure.Category },
    { value: figure.Complete + figure.NotComplete, drillDown: { ...created(summary), applicationType: figure.Types } },
  ]);
  return {
    title: 'Application Types Created',
    fileName: 'application-types-created.csv',
    columns: ['Application type', 'Created'],
    rows,
    ...emptyWhen(rows, emptyTexts.created),
  };
}

/** A partial period's label carries a mark (the note says what it means): not colour alone. */
export const partialMark = ' (partial)';

export function completedTable(summary: ReportSummary, period: CompletedPeriod): ReportTable {
  const periods = period === 'month' ? summary.CompletedByMonth : summary.CompletedByQuarter;
  const rows = periods.map((entry): ReportCell[] => [
    { value: `${entry.Label}${entry.Partial ? partialMark : ''}` },
    { value: entry.Count, drillDown: { completedFrom: entry.From, completedTo: entry.To } },
  ]);
  const empty = emptyWhen(rows, emptyTexts.completed);
  return {
    title: 'Completed Applications',
    fileName: `completed-applications-by-${period}.csv`,
    columns: [period === 'month' ? 'Month' : 'Quarter', 'Completed'],
    rows,
    // The mark explains bars; over an empty chart it explains nothing.
    note: !empty.empty && periods.some((entry) => entry.Partial) ? 'Partial: a period still running, or cut by the date range.' : undefined,
    ...empty,
  };
}

export function timeToCompleteTable(summary: ReportSummary): ReportTable {
  const { MedianSeconds, Percentile90Seconds, Buckets } = summary.TimeToComplete;
  const rows = Buckets.map((bucket): ReportCell[] => [{ value: bucket.Label }, { value: bucket.Count }]);
  return {
    title: 'Time to Complete',
    fileName: 'time-to-complete.csv',
    columns: ['Time to complete', 'Completed'],
    rows,
    note:
      MedianSeconds === null || Percentile90Seconds === null
        ? undefined
        : `Median ${durationLabel(MedianSeconds)} · 90th percentile ${durationLabel(Percentile90Seconds)}`,
    ...emptyWhen(rows, emptyTexts.completed),
  };
}

export function lastSectionsTable(summary: ReportSummary): ReportTable {
  const rows = summary.LastSections.map((section): ReportCell[] => [{ value: section.Section }, { value: section.Count }]);
  return {
    title: 'Last Section for Incomplete Applications',
    fileName: 'last-section-incomplete-applications.csv',
    columns: ['Last section (top 5)', 'Incomplete applications'],
    rows,
    ...emptyWhen(rows, emptyTexts.incomplete),
  };
}

/** The CSV of exactly the plotted figures: a header, then one record per row (RFC 4180, formulas neutralised). */
export const tableCsv = (table: ReportTable): string =>
  [table.columns, ...table.rows.map((row) => row.map((cell) => String(cell.value)))].map((values) => csvRecord(values)).join('');
