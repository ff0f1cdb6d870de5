import { listQueryToApiParams, listQueryToParams, type ApplicationListQuery } from '../domain/application-query.ts';
import { fileNameFromDisposition } from '../domain/content-disposition.ts';
import { storedListView, viewPreferenceStorageKey, type ListScope, type ListView } from '../domain/list-view.ts';
import { VisibleColumnsSchema } from '../schemas/admin.schema.ts';
import {
  ApplicationListResponseSchema,
  CancelApplicationsResponseSchema,
  NewApplicationResponseSchema,
  NewOnBehalfResponseSchema,
  type ApplicationListResponse,
  type CancelApplicationsResponse,
  type NewApplicationResponse,
  type NewOnBehalfRequest,
  type NewOnBehalfResponse,
} from '../schemas/applications.schema.ts';
import { getFile, getJson, postJson } from './http.ts';
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

const downloadTimeoutMs = 120_000;

/**
 * GET `url` with the session's token and save the answer as the file content-disposition names (AM §7).
 * Also used by the application detail's document downloads.
 */
export async function download(url: string, fallbackName: string, accept = 'text/csv, */*'): Promise<void> {
  const { blob, contentDisposition } = await getFile(url, { timeoutMs: downloadTimeoutMs, accept });
  saveFile(blob, fileNameFromDisposition(contentDisposition, fallbackName));
}

/** Hands a blob to the browser as a download: an object URL on a temporary anchor with `download`. */
function saveFile(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileName;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The click has started the download; the URL can go once the browser has read it.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** GET /application/export/my or /all with the list's filters and sort: downloads export.csv (AM §7). */
export function exportApplications(scope: ListScope, query: ApplicationListQuery): Promise<void> {
  const params = listQueryToParams(query).toString();
  const url = `${api(scope === 'all' ? '/application/export/all' : '/application/export/my')}${params ? `?${params}` : ''}`;
  return download(url, 'export.csv');
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
