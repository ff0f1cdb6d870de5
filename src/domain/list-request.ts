import { defaultSortBy, defaultSortType, isSortableColumn, type DataColumnName } from './list-columns.ts';

/**
 * The server's reading of the list query parameters (AM §2): strict, normalised and keyed for the
 * list caches. The portal builds and reads its addresses with application-query.ts; both agree on
 * names, defaults and bounds.
 */
export const listQueryParams = [
  'pageNo',
  'rowsPerPage',
  'status',
  'label',
  'sysLabel',
  'assignee',
  'subBrand',
  'products',
  'mustHaveAllSelectedProducts',
  'applicationType',
  'createdFrom',
  'createdTo',
  'completedFrom',
  'completedTo',
  'completed',
  'q',
  'sortBy',
  'sortType',
] as const;
export type ListQueryParam = (typeof listQueryParams)[number];
export type RawListQuery = Partial<Record<ListQueryParam, string>>;

/** The multi-select filters; each holds option values, '' being the '(None)' option. */
export const arrayFilterParams = ['status', 'label', 'sysLabel', 'assignee', 'subBrand', 'products', 'applicationType'] as const;

/**
 * The Reports page's drill-downs (issue 30): days (YYYY-MM-DD, inclusive) in the tenant's time
 * zone, the same days the report cut its periods on, so a drill-down lists exactly what was counted.
 */
export const dateFilterParams = ['createdFrom', 'createdTo', 'completedFrom', 'completedTo'] as const;
export type DateFilterParam = (typeof dateFilterParams)[number];
export type ArrayFilterParam = (typeof arrayFilterParams)[number];

export interface ListFilters {
  status: string[];
  label: string[];
  sysLabel: string[];
  assignee: string[];
  subBrand: string[];
  products: string[];
  mustHaveAllSelectedProducts: boolean;
  /** Exact ApplicationType values (the Reports page's "Other" is several). */
  applicationType: string[];
  createdFrom: string | null;
  createdTo: string | null;
  completedFrom: string | null;
  completedTo: string | null;
  /** true: completed (DateCompleted set); false: not completed; null: either. */
  completed: boolean | null;
  /** The search words of q (see searchWords); empty means no search. */
  search: string[];
}

export type SortType = 'asc' | 'desc';
export interface ListSort {
  sortBy: DataColumnName;
  sortType: SortType;
}

export interface ListPaging {
  pageNo: number;
  rowsPerPage: number;
}

export interface ListRequest {
  filters: ListFilters;
  sort: ListSort;
  paging: ListPaging;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; param: ListQueryParam; message: string };

/** ARCHITECTURE §5: 20 rows unless the address carries rowsPerPage. */
export const defaultRowsPerPage = 20;
/** The same bound the portal applies to the address (application-query.ts). */
export const maxRowsPerPage = 200;
export const maxFilterValues = 100;
export const maxSearchLength = 200;
export const maxSearchWords = 10;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const emptyFilters: ListFilters = {
  status: [],
  label: [],
  sysLabel: [],
  assignee: [],
  subBrand: [],
  products: [],
  mustHaveAllSelectedProducts: false,
  applicationType: [],
  createdFrom: null,
  createdTo: null,
  completedFrom: null,
  completedTo: null,
  completed: null,
  search: [],
};

const isoDayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isIsoDay(value: string): boolean {
  if (!isoDayPattern.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * The words a search looks for: lower-cased runs of letters and digits. Every other character
 * separates words, exactly as the server indexes the searched fields, so 'Smith-Jones' finds
 * "smith jones" and 'jo@ex' finds jo.smith@example.com. Each word matches as a prefix.
 */
export function searchWords(q: string): string[] {
  return [...new Set(q.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean))];
}

/** Longer than any label, status, product or sub-brand name. */
const maxFilterValueLength = 200;

function parseJsonArray(param: ArrayFilterParam, raw: string | undefined): ParseResult<string[]> {
  if (raw === undefined || raw.trim() === '') return { ok: true, value: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { ok: false, param, message: 'must be a JSON array of strings' };
  }
  if (!Array.isArray(parsed) || !parsed.every((item): item is string => typeof item === 'string')) {
    return { ok: false, param, message: 'must be a JSON array of strings' };
  }
  if (parsed.length > maxFilterValues) return { ok: false, param, message: `at most ${maxFilterValues} values` };
  // JSON's \u0000 escape gets past the URL's own NUL check; no filter value can hold one.
  if (parsed.some((value) => value.includes('\u0000') || value.length > maxFilterValueLength)) {
    return { ok: false, param, message: `values must be text of at most ${maxFilterValueLength} characters without NUL characters` };
  }
  if (param === 'assignee' && !parsed.every((value) => value === '' || uuidPattern.test(value))) {
    return { ok: false, param, message: 'values must be user ids (or empty for none)' };
  }
  const values = param === 'assignee' ? parsed.map((value) => value.toLowerCase()) : parsed;
  return { ok: true, value: [...new Set(values)].sort() };
}

function parseWholeNumber(param: 'pageNo' | 'rowsPerPage', raw: string | undefined, fallback: number, max: number): ParseResult<number> {
  if (raw === undefined || raw === '') return { ok: true, value: fallback };
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < 1) return { ok: false, param, message: 'must be a whole number of 1 or more' };
  if (value > max) return { ok: false, param, message: `must be at most ${max}` };
  return { ok: true, value };
}

/**
 * Reads the list query parameters into a normalised request: arrays de-duplicated and sorted, so
 * two addresses that mean the same list share one cache entry. The first bad parameter is named.
 */
export function parseListRequest(raw: RawListQuery): ParseResult<ListRequest> {
  const pageNo = parseWholeNumber('pageNo', raw.pageNo, 1, 100_000_000);
  if (!pageNo.ok) return pageNo;
  const rowsPerPage = parseWholeNumber('rowsPerPage', raw.rowsPerPage, defaultRowsPerPage, maxRowsPerPage);
  if (!rowsPerPage.ok) return rowsPerPage;

  const arrays: Partial<Record<ArrayFilterParam, string[]>> = {};
  for (const param of arrayFilterParams) {
    const parsed = parseJsonArray(param, raw[param]);
    if (!parsed.ok) return parsed;
    arrays[param] = parsed.value;
  }

  const days: Partial<Record<DateFilterParam, string>> = {};
  for (const param of dateFilterParams) {
    const value = raw[param] ?? '';
    if (value === '') continue;
    if (!isIsoDay(value)) return { ok: false, param, message: 'must be a date written YYYY-MM-DD' };
    days[param] = value;
  }
  if (days.createdFrom && days.createdTo && days.createdFrom > days.createdTo) {
    return { ok: false, param: 'createdTo', message: 'must not be before createdFrom' };
  }
  if (days.completedFrom && days.completedTo && days.completedFrom > days.completedTo) {
    return { ok: false, param: 'completedTo', message: 'must not be before completedFrom' };
  }
  const completedRaw = (raw.completed ?? '').toLowerCase();
  if (!['', 'true', 'false'].includes(completedRaw)) return { ok: false, param: 'completed', message: 'must be true or false' };

  const mustHaveAllRaw = (raw.mustHaveAllSelectedProducts ?? '').toLowerCase();
  if (!['', 'true', 'false'].includes(mustHaveAllRaw)) {
    return { ok: false, param: 'mustHaveAllSelectedProducts', message: 'must be true or false' };
  }

  const q = raw.q ?? '';
  if (q.length > maxSearchLength) return { ok: false, param: 'q', message: `at most ${maxSearchLength} characters` };
  const search = searchWords(q);
  if (search.length > maxSearchWords) return { ok: false, param: 'q', message: `at most ${maxSearchWords} words` };

  const sortBy = raw.sortBy === undefined || raw.sortBy === '' ? defaultSortBy : raw.sortBy;
  if (!isSortableColumn(sortBy)) return { ok: false, param: 'sortBy', message: `unknown column ${sortBy}` };
  const sortType = (raw.sortType === undefined || raw.sortType === '' ? defaultSortType : raw.sortType).toLowerCase();
  if (sortType !== 'asc' && sortType !== 'desc') return { ok: false, param: 'sortType', message: 'must be asc or desc' };

  const products = arrays.products ?? [];
  return {
    ok: true,
    value: {
      filters: {
        status: arrays.status ?? [],
        label: arrays.label ?? [],
        sysLabel: arrays.sysLabel ?? [],
        assignee: arrays.assignee ?? [],
        subBrand: arrays.subBrand ?? [],
        products,
        // The flag means nothing without products; dropping it keeps one cache entry per meaning.
        mustHaveAllSelectedProducts: products.length > 0 && mustHaveAllRaw === 'true',
        applicationType: arrays.applicationType ?? [],
        createdFrom: days.createdFrom ?? null,
        createdTo: days.createdTo ?? null,
        completedFrom: days.completedFrom ?? null,
        completedTo: days.completedTo ?? null,
        completed: completedRaw === '' ? null : completedRaw === 'true',
        search,
      },
      sort: { sortBy, sortType },
      paging: { pageNo: pageNo.value, rowsPerPage: rowsPerPage.value },
    },
  };
}

/** A stable text for a normalised filter set: equal filters give equal keys. */
export function filtersKey(filters: ListFilters): string {
  return JSON.stringify([
    filters.status,
    filters.label,
    filters.sysLabel,
    filters.assignee,
    filters.subBrand,
    filters.products,
    filters.mustHaveAllSelectedProducts,
    filters.applicationType,
    filters.createdFrom,
    filters.createdTo,
    filters.completedFrom,
    filters.completedTo,
    filters.completed,
    [...filters.search].sort(),
  ]);
}

/** MaxPage for a total: the number of pages, 0 when there is nothing to show. */
export const maxPage = (totalRows: number, rowsPerPage: number): number => Math.ceil(totalRows / rowsPerPage);
