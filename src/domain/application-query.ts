import { sortableColumns, type SortColumn } from '../schemas/applications.schema.ts';

/** The packed filters of AM §2, each a JSON array in the address and in the API call. */
export const arrayFilterKeys = ['status', 'label', 'sysLabel', 'assignee', 'subBrand', 'products'] as const;
export type ArrayFilterKey = (typeof arrayFilterKeys)[number];

export type SortType = 'asc' | 'desc';

/** Everything that decides which page of which applications is listed. */
export interface ApplicationListQuery extends Record<ArrayFilterKey, string[]> {
  pageNo: number;
  rowsPerPage: number;
  mustHaveAllSelectedProducts: boolean;
  q: string;
  sortBy: SortColumn;
  sortType: SortType;
}

export const defaultRowsPerPage = 20;
export const maxRowsPerPage = 200;
/** The '(None)' option: an empty value that matches applications without one. */
export const noneValue = '';

export const defaultListQuery: ApplicationListQuery = {
  pageNo: 1,
  rowsPerPage: defaultRowsPerPage,
  status: [],
  label: [],
  sysLabel: [],
  assignee: [],
  subBrand: [],
  products: [],
  mustHaveAllSelectedProducts: false,
  q: '',
  sortBy: 'ID',
  sortType: 'desc',
};

export type ParseResult = { ok: true; query: ApplicationListQuery } | { ok: false; parameter: string; message: string };

type ParamSource = { get(name: string): string | null };

const fail = (parameter: string, message: string): ParseResult => ({ ok: false, parameter, message: `${parameter}: ${message}` });

function parsePositiveInt(raw: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= 1 && value <= max ? value : undefined;
}

function parseStringArray(raw: string | null): string[] | undefined {
  if (raw === null || raw === '') return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (Array.isArray(value) && value.every((item): item is string => typeof item === 'string')) return [...new Set(value)];
  } catch {
    // falls through to "not a JSON array of strings"
  }
  return undefined;
}

/** Reads a list query from address or API parameters; the first bad parameter is named. */
export function parseListQuery(params: ParamSource): ParseResult {
  const pageNo = parsePositiveInt(params.get('pageNo'), 1);
  if (pageNo === undefined) return fail('pageNo', 'must be a whole number from 1');
  const rowsPerPage = parsePositiveInt(params.get('rowsPerPage'), defaultRowsPerPage, maxRowsPerPage);
  if (rowsPerPage === undefined) return fail('rowsPerPage', `must be a whole number from 1 to ${maxRowsPerPage}`);

  const query: ApplicationListQuery = { ...defaultListQuery, pageNo, rowsPerPage };
  for (const key of arrayFilterKeys) {
    const values = parseStringArray(params.get(key));
    if (values === undefined) return fail(key, 'must be a JSON array of strings');
    query[key] = values;
  }

  const mustHaveAll = params.get('mustHaveAllSelectedProducts');
  if (mustHaveAll !== null && mustHaveAll !== '' && mustHaveAll !== 'true' && mustHaveAll !== 'false') {
    return fail('mustHaveAllSelectedProducts', 'must be true or false');
  }
  query.mustHaveAllSelectedProducts = mustHaveAll === 'true';

  query.q = (params.get('q') ?? '').trim().slice(0, 200);

  const sortBy = params.get('sortBy');
  if (sortBy !== null && sortBy !== '') {
    const column = sortableColumns.find((name) => name === sortBy);
    if (!column) return fail('sortBy', `unknown column ${sortBy}`);
    query.sortBy = column;
  }
  const sortType = params.get('sortType');
  if (sortType !== null && sortType !== '') {
    if (sortType !== 'asc' && sortType !== 'desc') return fail('sortType', 'must be asc or desc');
    query.sortType = sortType;
  }
  return { ok: true, query };
}

/**
 * Writes the filters, search and sort as parameters, leaving defaults out so addresses stay short.
 * Page and page size are not included: the portal keeps them in the path, the API call adds them.
 */
export function listQueryToParams(query: ApplicationListQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of arrayFilterKeys) {
    if (query[key].length > 0) params.set(key, JSON.stringify(query[key]));
  }
  if (query.mustHaveAllSelectedProducts) params.set('mustHaveAllSelectedProducts', 'true');
  if (query.q) params.set('q', query.q);
  if (query.sortBy !== defaultListQuery.sortBy) params.set('sortBy', query.sortBy);
  if (query.sortType !== defaultListQuery.sortType) params.set('sortType', query.sortType);
  return params;
}

/** The API call's parameters: the filters plus page and page size. */
export function listQueryToApiParams(query: ApplicationListQuery): URLSearchParams {
  const params = listQueryToParams(query);
  params.set('pageNo', String(query.pageNo));
  params.set('rowsPerPage', String(query.rowsPerPage));
  return params;
}

/** AM §2: any change of filter, search or sort goes back to page 1. */
export const withQueryChange = (query: ApplicationListQuery, change: Partial<Omit<ApplicationListQuery, 'pageNo' | 'rowsPerPage'>>): ApplicationListQuery => ({
  ...query,
  ...change,
  pageNo: 1,
});

/** AM §4: the first click on a column sorts descending; clicking the active descending column ascends. */
export function nextSort(query: ApplicationListQuery, column: SortColumn): Pick<ApplicationListQuery, 'sortBy' | 'sortType'> {
  if (query.sortBy !== column) return { sortBy: column, sortType: 'desc' };
  return { sortBy: column, sortType: query.sortType === 'desc' ? 'asc' : 'desc' };
}

/** A key that is equal for queries listing the same rows (used to cache TotalRows). */
export function filterKey(query: ApplicationListQuery): string {
  const sorted = arrayFilterKeys.map((key) => [key, [...query[key]].sort()]);
  return JSON.stringify([sorted, query.mustHaveAllSelectedProducts, query.q.toLowerCase()]);
}
