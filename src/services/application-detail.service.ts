import { VisibleRowsSchema } from '../schemas/admin.schema.ts';
import {
  ActivityFeedResponseSchema,
  ApplicationDetailSchema,
  ApplicationIpsResponseSchema,
  CommentsResponseSchema,
  ReloadResponseSchema,
  UploadDocumentsResponseSchema,
  type ActivityItem,
  type ApplicationComment,
  type ApplicationDetail,
  type ApplicationIp,
  type DocumentQuery,
  type ReloadResponse,
  type UploadDocumentsResponse,
} from '../schemas/application-detail.schema.ts';
import { downloadFile, getJson, postFormWithProgress, postJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;
const segment = (value: string) => encodeURIComponent(value);

/** GET /application/get/{id}: the application by its ApplicationID (AM §7). A 404 also means "not yours to see". */
export function getApplication(applicationId: string): Promise<ApplicationDetail> {
  return getJson(api(`/application/get/${segment(applicationId)}`), ApplicationDetailSchema);
}

/** GET /application/get/ips/{id}: the addresses the applicants used, for the VPN Summary card. */
export async function getApplicationIps(applicationId: string): Promise<ApplicationIp[]> {
  return (await getJson(api(`/application/get/ips/${segment(applicationId)}`), ApplicationIpsResponseSchema))
    .ApplicationIps;
}

/** GET /application/activityfeed/{id}: the activity feed, newest first. */
export async function getActivityFeed(applicationId: string): Promise<ActivityItem[]> {
  return (await getJson(api(`/application/activityfeed/${segment(applicationId)}`), ActivityFeedResponseSchema))
    .ActivityFeedItems;
}

/** POST /application/reload/{id}: the application is read again from its source (the Refresh button). */
export function reloadApplication(applicationId: string): Promise<ReloadResponse> {
  return postJson(api(`/application/reload/${segment(applicationId)}`), {}, ReloadResponseSchema);
}

/** GET /comment/{id}: the comments, newest first. */
export async function getComments(applicationId: string): Promise<ApplicationComment[]> {
  return (await getJson(api(`/comment/${segment(applicationId)}`), CommentsResponseSchema)).Comments;
}

/** POST /comment/{id} {Comment}: the comments with the new one, newest first (the server trims and enforces AM §5). */
export async function addComment(applicationId: string, comment: string): Promise<ApplicationComment[]> {
  return (await postJson(api(`/comment/${segment(applicationId)}`), { Comment: comment }, CommentsResponseSchema)).Comments;
}

const uploadTimeoutMs = 300_000;

/**
 * POST /document/upload/{id}, multipart with the files under `files`: one result per file, and the
 * bytes sent so far as they go. A refusal the server explains (4xx with the answer's shape) comes
 * back as the answer, so its per-file Message can be shown.
 */
export function uploadDocuments(
  applicationId: string,
  files: readonly File[],
  onProgress: (sent: number, total: number) => void,
  signal?: AbortSignal,
): Promise<UploadDocumentsResponse> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  return postFormWithProgress(api(`/document/upload/${segment(applicationId)}`), form, UploadDocumentsResponseSchema, {
    onProgress,
    signal,
    timeoutMs: uploadTimeoutMs,
  });
}

const downloadTimeoutMs = 300_000;
const download = (url: string, fallbackName: string, accept: string) => downloadFile(url, fallbackName, { timeoutMs: downloadTimeoutMs, accept });

/** GET /document?ApplicationGuid=&LabDocsId=: one document, saved under the name the server gives. */
export function downloadDocument(query: DocumentQuery, fallbackName: string): Promise<void> {
  const params = new URLSearchParams({ ApplicationGuid: query.ApplicationGuid, LabDocsId: query.LabDocsId });
  return download(api(`/document?${params.toString()}`), fallbackName, '*/*');
}

/** GET /document/zip/{id}: every document of the application as one zip. */
export function downloadAllDocuments(applicationId: string): Promise<void> {
  return download(
    api(`/document/zip/${segment(applicationId)}`),
    `application-${applicationId}-documents.zip`,
    'application/zip, */*',
  );
}

/** GET /configuration/rows: the optional detail rows the tenant shows (AM §3, set on /admin). */
export async function visibleDetailRows(): Promise<string[]> {
  return (await getJson(api('/configuration/rows'), VisibleRowsSchema)).RowNames;
}
