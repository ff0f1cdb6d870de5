import { fileNameFromDisposition } from '../domain/content-disposition.ts';
import { BulkUploadResponseSchema, type BulkUploadResponse } from '../schemas/bulk-upload.schema.ts';
import {
  currentAccessToken,
  getFile,
  HttpError,
  NetworkError,
  notifyUnauthorized,
  ResponseShapeError,
} from './http.ts';
import { reportError } from './monitoring.ts';
import { runtimeConfig } from './runtime-config.ts';

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;
const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, */*';
const uploadTimeoutMs = 300_000;

/**
 * POST /application/bulkupload, multipart with the workbook under files[] (AM §7), reporting upload
 * progress (bytes sent of the total) as it goes. XMLHttpRequest, not ky: fetch reports no upload
 * progress, and streaming a request body needs HTTP/2 in Chromium. Errors are the wrapper's types,
 * reported once; a 401 ends the session like any other call.
 */
export function uploadApplications(
  file: File,
  onProgress: (loaded: number, total: number) => void,
): Promise<BulkUploadResponse> {
  const url = api('/application/bulkupload');
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.timeout = uploadTimeoutMs;
    request.setRequestHeader('accept', 'application/json');
    const token = currentAccessToken();
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) =>
      onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    const networkFailure = () => {
      const error = new NetworkError(url, { cause: new Error('upload failed') });
      reportError(error);
      reject(error);
    };
    request.onerror = networkFailure;
    request.ontimeout = networkFailure;
    request.onload = () => {
      if (request.status === 401) {
        notifyUnauthorized();
        reject(new HttpError(401, url));
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      if (request.status < 200 || request.status >= 300) {
        const error = new HttpError(request.status, url, body);
        reportError(error);
        reject(error);
        return;
      }
      const parsed = BulkUploadResponseSchema.safeParse(body);
      if (!parsed.success) {
        const error = new ResponseShapeError(url, parsed.error.issues);
        reportError(error);
        reject(error);
        return;
      }
      resolve(parsed.data);
    };
    const form = new FormData();
    form.append('files[]', file, file.name);
    request.send(form);
  });
}

async function download(url: string, fallbackName: string): Promise<void> {
  const { blob, contentDisposition } = await getFile(url, { timeoutMs: uploadTimeoutMs, accept: xlsx });
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileNameFromDisposition(contentDisposition, fallbackName);
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** GET /application/bulkupload/template: the tenant's template, saved as the server names it. */
export function downloadBulkUploadTemplate(): Promise<void> {
  return download(api('/application/bulkupload/template'), 'application-upload-template.xlsx');
}

/** GET /application/bulkupload/errorfile/{id}: the uploaded workbook with its issues highlighted (AM §7). */
export function downloadBulkUploadErrorFile(id: string): Promise<void> {
  return download(
    api(`/application/bulkupload/errorfile/${encodeURIComponent(id)}`),
    'application-upload-issues.xlsx',
  );
}
