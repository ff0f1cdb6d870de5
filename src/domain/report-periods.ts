import { isIsoDay } from './list-request.ts';

/**
 * The Reports page's rules (issue 30, SUV §2), shared by the server that counts and the portal that
 * draws: categories, the default range, months and quarters, the Time to Complete buckets. Days are
 * YYYY-MM-DD in the tenant's time zone; nothing here knows a time zone.
 */

/** SUV §2 Initiated Applications: these five, and every other type as 'Other'. */
export const reportTypeCategories = ['Individual', 'Joint', 'Company', 'Trust Individual', 'Trust Corporate'] as const;
export const otherCategory = 'Other';
export const categoryOf = (applicationType: string): string =>
  reportTypeCategories.some((category) => category === applicationType) ? applicationType : otherCategory;

/** SUV §2 Time to Complete buckets: upper bounds in seconds (exclusive), the last open. */
export const timeToCompleteBuckets = [
  { label: '0-0.5h', below: 1_800 },
  { label: '0.5-1h', below: 3_600 },
  { label: '1-2h', below: 7_200 },
  { label: '2-6h', below: 21_600 },
  { label: 'Over 6h', below: Number.POSITIVE_INFINITY },
] as const;

/** SUV §2: the top 5 last sections. */
export const lastSectionsShown = 5;
/** An incomplete application with no section recorded. */
export const notStartedSection = 'Not started';

/** At most ten years of months in one report. */
export const maxRangeDays = 3_660;

const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (value: number) => String(value).padStart(2, '0');
const dayOf = (year: number, month: number, date: number) => `${year}-${pad(month)}-${pad(date)}`;
const partsOf = (day: string): [number, number, number] => {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return [year, month, date];
};
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Whole days from `from` to `to` (calendar arithmetic on the written days). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The default range: the first day of the month eleven months back, to today (twelve months). */
export function defaultRange(today: string): { from: string; to: string } {
  const [year, month] = partsOf(today);
  const start = year * 12 + (month - 1) - 11;
  return { from: dayOf(Math.floor(start / 12), (start % 12) + 1, 1), to: today };
}

export type RangeProblem = { param: 'from' | 'to'; message: string };
export type RangeResult = { ok: true; from: string; to: string } | ({ ok: false } & RangeProblem);

/** Today (YYYY-MM-DD) in an IANA time zone: the tenant's day, which ranges and periods are cut by. */
export const todayIn = (timeZone: string, now = new Date()): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

/**
 * What is wrong with a range, if anything: the one rule the server answers 400 with and the
 * portal checks before it asks (so a range that cannot succeed is neither sent nor retried).
 * Either day may be missing (then the default's). Without `today` (the portal before it knows the
 * tenant's day) a missing `to` and the future are left to the server.
 */
export function checkRange(raw: { from?: string | undefined; to?: string | undefined }, today: string | undefined): RangeProblem | undefined {
  for (const param of ['from', 'to'] as const) {
    const value = raw[param];
    if (value !== undefined && value !== '' && !isIsoDay(value)) return { param, message: 'must be a real day written YYYY-MM-DD' };
  }
  // The future has no applications yet: a range reaching into it is refused, not drawn as empty.
  for (const param of ['from', 'to'] as const) {
    const value = raw[param];
    if (value && today !== undefined && value > today) return { param, message: `must not be after today (${today})` };
  }
  const to = raw.to || today;
  if (to === undefined) return undefined;
  const from = raw.from || defaultRange(to).from;
  if (from > to) return { param: 'to', message: `must not be before from (${from})` };
  const days = daysBetween(from, to);
  if (days > maxRangeDays) {
    return { param: 'from', message: `the range is at most ${maxRangeDays.toLocaleString('en-AU')} days (this one is ${days.toLocaleString('en-AU')})` };
  }
  return undefined;
}

/** Reads the range of a request: either day may be missing (then the default's). */
export function readRange(raw: { from?: string | undefined; to?: string | undefined }, today: string): RangeResult {
  const problem = checkRange(raw, today);
  if (problem) return { ok: false, ...problem };
  const to = raw.to || today;
  return { ok: true, from: raw.from || defaultRange(to).from, to };
}

export interface Period {
  /** 'YYYY-MM' for a month, 'YYYY-Qn' for a quarter: how the server keys its counts. */
  key: string;
  label: string;
  from: string;
  to: string;
  partial: boolean;
}

function periods(from: string, to: string, today: string, monthsPer: 1 | 3): Period[] {
  const [fromYear, fromMonth] = partsOf(from);
  const [toYear, toMonth] = partsOf(to);
  const lastWhole = today < to ? today : to;
  const result: Period[] = [];
  let index = fromYear * 12 + Math.floor((fromMonth - 1) / monthsPer) * monthsPer;
  for (; index <= toYear * 12 + toMonth - 1; index += monthsPer) {
    const year = Math.floor(index / 12);
    const month = (index % 12) + 1;
    const endMonth = month + monthsPer - 1;
    const start = dayOf(year, month, 1);
    const end = dayOf(year, endMonth, daysInMonth(year, endMonth));
    const quarter = Math.floor((month - 1) / 3) + 1;
    result.push({
      key: monthsPer === 1 ? `${year}-${pad(month)}` : `${year}-Q${quarter}`,
      label: monthsPer === 1 ? `${monthNames[month - 1]} ${year}` : `Q${quarter} ${year}`,
      from: start < from ? from : start,
      to: end > to ? to : end,
      partial: start < from || end > lastWhole,
    });
  }
  return result;
}

/** Every month touching [from, to], clipped to it; partial when cut by the range or not over yet. */
export const monthsOf = (from: string, to: string, today: string): Period[] => periods(from, to, today, 1);
/** Every calendar quarter touching [from, to], likewise. */
export const quartersOf = (from: string, to: string, today: string): Period[] => periods(from, to, today, 3);
/** The quarter key of a month key: '2026-11' → '2026-Q4'. */
export const quarterKeyOf = (monthKey: string): string => {
  const [year, month] = partsOf(`${monthKey}-01`);
  return `${year}-Q${Math.floor((month - 1) / 3) + 1}`;
};

/** A duration in seconds as people read it: '45 min', '3 h 10 min', '2 d 4 h'. */
export function durationLabel(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  // From two days on minutes are not shown: the nearest hour, not the hour begun (2 d 11 h 50 min reads 2 d 12 h).
  const nearestHours = Math.round(minutes / 60);
  const days = Math.floor(nearestHours / 24);
  return nearestHours % 24 === 0 ? `${days} d` : `${days} d ${nearestHours % 24} h`;
}
