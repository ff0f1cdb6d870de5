import type { SortColumn } from '../schemas/applications.schema.ts';
import { defaultSortBy, defaultSortType } from './list-columns.ts';
import {
  arrayFilterParams,
  dateFilterParams,
  defaultRowsPerPage,
  listQueryParams,
  maxRowsPerPage,
  parseListRequest,
  type RawListQuery,
} from './list-request.ts';

/** The packed filters of AM §2, each a JSON array in the address and in the API call. */
export const arrayFilterKeys = arrayFilterParams;
export type ArrayFilterKey = (typeof arrayFilterKeys)[number];

export type SortType = 'asc' | 'desc';

/** The Reports drill-down days (YYYY-MM-DD in the tenant's time zone, inclusive). */
export const dateFilterKeys = dateFilterParams;
export type DateFilterKey = (typeof dateFilterKeys)[number];

/** Everything that decides which page of which applications is listed. */
export interface ApplicationListQuery extends Record<ArrayFilterKey, string[]> {
  pageNo: number;
  rowsPerPage: number;
  mustHaveAllSelectedProducts: boolean;
  createdFrom: string;
  createdTo: string;
  completedFrom: string;
  completedTo: string;
  /** 'true', 'false' or '' for either (Reports: Complete / Not Complete). */
  completed: '' | 'true' | 'false';
  q: string;
  sortBy: SortColumn;
  sortType: SortType;
}

export { defaultRowsPerPage, maxRowsPerPage };
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
  applicationType: [],
  mustHaveAllSelectedProducts: false,
  createdFrom: '',
  createdTo: '',
  completedFrom: '',
  completedTo: '',
  completed: '',
  q: '',
  sortBy: defaultSortBy,
  sortType: defaultSortType,
};

export type ParseResult = { ok: true; query: ApplicationListQuery } | { ok: false; parameter: string; message: string };

type ParamSource = { get(name: string): string | null };

/** JSON arrays of strings, order and duplicates as written (the address keeps what people chose). */
const stringArray = (raw: string | null): string[] => {
  const value: unknown = raw ? JSON.parse(raw) : [];
  return Array.isArray(value) ? [...new Set(value.filter((item): item is string => typeof item === 'string'))] : [];
};

/**
 * Reads a list query from the address. Validity is decided by the server's own reading
 * (`parseListRequest`), so the portal accepts exactly what the API accepts and names the same
 * parameter when it does not; the address query keeps values as written, unnormalised.
 */
export function parseListQuery(params: ParamSource): ParseResult {
  const raw: RawListQuery = {};
  for (const name of listQueryParams) {
    const value = params.get(name);
    if (value !== null) raw[name] = value;
  }
  const checked = parseListRequest(raw);
  if (!checked.ok) return { ok: false, parameter: checked.param, message: `${checked.param}: ${checked.message}` };
  const { paging, sort } = checked.value;
  const query: ApplicationListQuery = { ...defaultListQuery, ...paging, ...sort };
  for (const key of arrayFilterKeys) query[key] = stringArray(params.get(key));
  query.mustHaveAllSelectedProducts = params.get('mustHaveAllSelectedProducts')?.toLowerCase() === 'true';
  for (const key of dateFilterKeys) query[key] = params.get(key) ?? '';
  const completed = params.get('completed')?.toLowerCase() ?? '';
  query.completed = completed === 'true' || completed === 'false' ? completed : '';
  query.q = (params.get('q') ?? '').trim();
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
  for (const key of dateFilterKeys) if (query[key]) params.set(key, query[key]);
  if (query.completed) params.set('completed', query.completed);
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
