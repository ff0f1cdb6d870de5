import {
  defaultRowsPerPage,
  listQueryToParams,
  type ApplicationListQuery,
} from './application-query.ts';
import { fixedListColumns, listColumnNames, type ListColumnName } from './list-columns.ts';
import { formatCount } from './list-format.ts';
import { applicationListTitle } from './page-titles.ts';

/** My Apps (/list) or All Apps (/list/all). */
export type ListScope = 'my' | 'all';

/** AM §2 `view`: list or email (the module view exists but is disabled, so it is never offered). */
export type ListView = 'list' | 'email';
export const defaultListView: ListView = 'list';

/** AM §2/§9: the email view needs a window at least this wide; narrower windows show the list. */
export const emailViewMinWidth = 1200;
/** Below this width the portal is on a phone: the list shows the Status column only (AM §2). */
export const phoneMaxWidth = 768;

export const isPhoneWidth = (width: number): boolean => width < phoneMaxWidth;

/** The view on screen: the email view only where the window is wide enough; the preference is kept. */
export const effectiveListView = (preference: ListView, width: number): ListView =>
  preference === 'email' && width >= emailViewMinWidth ? 'email' : 'list';

/** The `view` address parameter; anything else (module, junk) leaves the stored preference in charge. */
export function parseListView(raw: string | null): ListView | undefined {
  return raw === 'list' || raw === 'email' ? raw : undefined;
}

/** A stored preference as read back from local storage; unknown values are the default. */
export const storedListView = (raw: string | null): ListView => parseListView(raw) ?? defaultListView;

/** Key of the stored view preference (AM §2). */
export const viewPreferenceStorageKey = 'viewPreference';

const listBasePath = (scope: ListScope): string => (scope === 'all' ? '/list/all' : '/list');

/**
 * The list's address (AM §2): page and page size in the path (`/list/{pageNo}/{rowsPerPage}`, left
 * out while default), filters, search and sort as parameters, and `view=email` when that is chosen.
 */
export function listHref(scope: ListScope, query: ApplicationListQuery, view: ListView = defaultListView): string {
  let path = listBasePath(scope);
  const customRows = query.rowsPerPage !== defaultRowsPerPage;
  if (query.pageNo !== 1 || customRows) path += `/${query.pageNo}`;
  if (customRows) path += `/${query.rowsPerPage}`;
  const params = listQueryToParams(query);
  if (view !== defaultListView) params.set('view', view);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * What `parseListQuery` reads from an address: page and page size come from the path only (a
 * `pageNo` in the query string is ignored), everything else from the query string.
 */
export function listAddressParams(
  path: { pageNo?: string; rowsPerPage?: string },
  search: URLSearchParams,
): { get(name: string): string | null } {
  return {
    get(name) {
      if (name === 'pageNo') return path.pageNo ?? null;
      if (name === 'rowsPerPage') return path.rowsPerPage ?? null;
      return search.get(name);
    },
  };
}

/** AM §2: a row opens `/application/{ApplicationID}?from=my|all`, so the breadcrumb returns to the same list. */
export const applicationDetailHref = (applicationId: number, scope: ListScope): string =>
  `/application/${applicationId}?from=${scope}`;

/** AM §2/§9: 'Applications', with the total count and a thousands separator once it is known. */
export const listTitle = (total: number | undefined): string =>
  total === undefined ? applicationListTitle : `${applicationListTitle} (${formatCount(total)})`;

/**
 * The columns the list shows: the tenant's visible columns (AM §7 /configuration/columns), unknown
 * names dropped, the always-visible ones (AM §2) added if missing, in the spec's column order with
 * the row menu last. On a phone (isPhoneWidth) only Status shows (AM §2).
 */
export function listColumnsToShow(names: readonly string[], phone: boolean): ListColumnName[] {
  if (phone) return ['Status'];
  const shown = new Set<string>([...names, ...fixedListColumns]);
  const columns = listColumnNames.filter((name) => shown.has(name) && name !== 'Actions');
  return shown.has('Actions') ? [...columns, 'Actions'] : columns;
}

/** While /configuration/columns is unknown or unavailable, the always-visible columns. */
export const fallbackColumnNames: readonly string[] = fixedListColumns;
