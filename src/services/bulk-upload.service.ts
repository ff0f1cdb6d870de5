import { BulkUploadResponseSchema, type BulkUploadResponse } from '../schemas/bulk-upload.schema.ts';
import { downloadFile, postFormWithProgress } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;
const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, */*';
const uploadTimeoutMs = 300_000;

/**
 * POST /application/bulkupload, multipart with the workbook under files[] (AM §7), reporting upload
 * progress (bytes sent of the total) as it goes; the wrapper's typed errors, reported once, and a
 * 401 ends the session like any other call.
 */
export function uploadApplications(file: File, onProgress: (loaded: number, total: number) => void): Promise<BulkUploadResponse> {
  const form = new FormData();
  form.append('files[]', file, file.name);
  return postFormWithProgress(api('/application/bulkupload'), form, BulkUploadResponseSchema, { onProgress, timeoutMs: uploadTimeoutMs });
}

const download = (url: string, fallbackName: string) => downloadFile(url, fallbackName, { timeoutMs: uploadTimeoutMs, accept: xlsx });

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
