import { listQueryToApiParams, listQueryToParams, type ApplicationListQuery } from '../domain/application-query.ts';
import { storedListView, viewPreferenceStorageKey, type ListScope, type ListView } from '../domain/list-view.ts';
import { VisibleColumnsSchema } from '../schemas/admin.schema.ts';
import {
  ApplicationListResponseSchema,
  CancelApplicationsResponseSchema,
  ExportLinkResponseSchema,
  NewApplicationResponseSchema,
  NewOnBehalfResponseSchema,
  type ApplicationListResponse,
  type CancelApplicationsResponse,
  type NewApplicationResponse,
  type NewOnBehalfRequest,
  type NewOnBehalfResponse,
} from '../schemas/applications.schema.ts';
import { getJson, postJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;

/** GET /application/list (My Apps) or /application/list/all: one page of the filtered, sorted list. */
export function listApplications(scope: ListScope, query: ApplicationListQuery): Promise<ApplicationListResponse> {
  const path = scope === 'all' ? '/application/list/all' : '/application/list';
  return getJson(`${api(path)}?${listQueryToApiParams(query).toString()}`, ApplicationListResponseSchema);
}

/** GET /configuration/columns: the list columns the tenant shows (AM §7 ColumnNames). */
export async function visibleColumnNames(): Promise<string[]> {
  return (await getJson(api('/configuration/columns'), VisibleColumnsSchema)).ColumnNames;
}

/** POST /application/cancel: each application is cancelled on its own; the answer says which were. */
export function cancelApplications(applicationGuids: readonly string[]): Promise<CancelApplicationsResponse> {
  const body = { ApplicationCancellations: applicationGuids.map((ApplicationGuid) => ({ ApplicationGuid })) };
  return postJson(api('/application/cancel'), body, CancelApplicationsResponseSchema);
}

/** POST /application/new: a new application for the signed-in user; Url opens its form. */
export function newApplication(): Promise<NewApplicationResponse> {
  return postJson(api('/application/new'), {}, NewApplicationResponseSchema);
}

/** POST /application/newonbehalf {GlobalUserId, OwnerId}: a new application owned by the chosen owner. */
export function newApplicationOnBehalf(request: NewOnBehalfRequest): Promise<NewOnBehalfResponse> {
  return postJson(api('/application/newonbehalf'), request, NewOnBehalfResponseSchema);
}

/**
 * Hands a same-origin download to the browser: a temporary anchor with `download`. The server
 * answers it with content-disposition attachment, so the browser streams the file to disk with its
 * own progress, and the page stays where it is.
 */
function startDownload(url: string, fileName: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

/**
 * Export All to CSV (AM §7 /application/export/my or /all with the list's filters and sort). The
 * page asks the server for a one-time download link for that export (POST .../link, with the
 * session's token) and the browser downloads export.csv from it: the file never passes through the
 * page, whatever its size. Resolves once the download has been handed to the browser.
 */
export async function exportApplications(scope: ListScope, query: ApplicationListQuery): Promise<void> {
  const params = listQueryToParams(query).toString();
  const path = scope === 'all' ? '/application/export/all/link' : '/application/export/my/link';
  const link = await postJson(`${api(path)}${params ? `?${params}` : ''}`, {}, ExportLinkResponseSchema);
  startDownload(link.Url, 'export.csv');
}

/** AM §2: the list or email view preference, kept in local storage under viewPreference. */
export function readViewPreference(): ListView {
  try {
    return storedListView(window.localStorage.getItem(viewPreferenceStorageKey));
  } catch {
    // No storage (disabled, private mode, or no window at all): the default view.
    return storedListView(null);
  }
}

export function saveViewPreference(view: ListView): void {
  try {
    window.localStorage.setItem(viewPreferenceStorageKey, view);
  } catch {
    // Storage can be disabled; the preference then lasts as long as the page.
  }
}
