import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BulkUploadErrorFileParamsSchema,
  BulkUploadResponseSchema,
  bulkUploadResponseTypes,
  type BulkUploadResponse,
} from '../../src/schemas/bulk-upload.schema.ts';
import { badRequest, notFound } from '../http-error.ts';
import { isUuid } from '../db/applications-store.ts';
import {
  bulkUploadLookups,
  findErrorFile,
  importApplications,
  recentlyImported,
  saveErrorFile,
  usedExternalIds,
} from '../db/bulk-upload-store.ts';
import { validateRowsInSlices } from '../bulk-upload/validate-rows.ts';
import { buildTemplate, readUpload, workbookFormat, writeErrorWorkbook } from '../bulk-upload/workbook.ts';
import { zipProblem } from '../bulk-upload/zip-guard.ts';
import { importSlots } from '../bulk-upload/import-slots.ts';
import { principalOf, type RouteContext } from './context.ts';
import { attachmentHeader } from '../content-disposition.ts';
import { cleanFileName, hasVisibleName, invisibleFileNameMessage } from './documents.routes.ts';

/**
 * Issue 15 limits: the upload's size, and what its zip may inflate to before exceljs opens it. A full
 * template (10,000 rows, every cell holding 40 characters) inflates to about 15 MB; 64 MB let a 2 MB
 * file take a worker to ~0.5 GB (issue 27 point 14).
 */
export const bulkUploadMaxBytes = 10 * 1024 * 1024;
export const bulkUploadMaxUncompressedBytes = 24 * 1024 * 1024;
export const busyMessage = 'The server is busy importing other files. Please try again in a minute.';
const busyRetryAfterSeconds = 30;
const xlsxMime = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const duplicateFileMessage =
  'This file was already uploaded in the last hour and its applications were created. It was not imported again.';

const answer = (
  ResponseType: string,
  Message: string,
  TemporaryErrorFileId: string | null = null,
): BulkUploadResponse => ({
  Success: ResponseType === bulkUploadResponseTypes.success,
  Message,
  ResponseType,
  TemporaryErrorFileId,
});
const invalidFile = (message: string) => answer(bulkUploadResponseTypes.invalidFile, message);

/** The file's bytes, or undefined when it is over `max` (the rest is drained, never buffered). */
async function readLimited(
  file: Readable & { truncated?: boolean },
  max: number,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= max) chunks.push(chunk);
  }
  return size > max || file.truncated ? undefined : Buffer.concat(chunks);
}

/**
 * AM §2/§7 bulk upload (issue 15): the tenant's template, the upload (validated whole, imported all
 * or nothing) and the error workbook of an upload with invalid cells. Every route needs app.bulkupload.
 */
export function registerBulkUploadRoutes({ app, db, access, config }: RouteContext) {
  const slots = importSlots(config.BULK_UPLOAD_CONCURRENCY);
  const rule = access.requireAccess({ scope: 'applicationmanager', claims: ['app.bulkupload'] });

  app.get('/api/application/bulkupload/template', { preValidation: rule }, async (request, reply) => {
    const lookups = await bulkUploadLookups(db, principalOf(request).tenantId);
    const content = await buildTemplate(lookups);
    return reply
      .header('content-type', xlsxMime)
      .header('content-disposition', attachmentHeader('application-upload-template.xlsx'))
      .header('cache-control', 'no-store')
      .send(content);
  });

  app.get(
    '/api/application/bulkupload/errorfile/:id',
    { preValidation: rule, schema: { params: BulkUploadErrorFileParamsSchema } },
    async (request, reply) => {
      const { id } = request.params;
      const file = isUuid(id)
        ? await findErrorFile(db, principalOf(request), id.toLowerCase())
        : undefined;
      if (!file) throw notFound('This error file is unknown or has expired. Upload the file again.');
      const base = file.fileName.replace(/\.xlsx?$/i, '') || 'applications';
      return reply
        .header('content-type', xlsxMime)
        .header('content-disposition', attachmentHeader(`${base}-issues.xlsx`))
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  );

  app.register(async (scope) => {
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    // A file past the limit is truncated, not thrown: the route answers it as an InvalidFile with
    // its size in words (readLimited), where the plugin would answer a bare 413.
    await typed.register(multipart, {
      throwFileSizeLimit: false,
      limits: { files: 1, fields: 5, fieldSize: 1024, parts: 6, fileSize: bulkUploadMaxBytes },
    });

    typed.post(
      '/api/application/bulkupload',
      { config: { application: 'none' }, preValidation: rule, schema: { response: { 200: BulkUploadResponseSchema } } },
      async (request, reply) => {
        if (!request.isMultipart()) throw badRequest('files[]: must be multipart/form-data with one file');
        const principal = principalOf(request);
        let upload: { name: string; content: Buffer | undefined } | undefined;
        for await (const part of request.parts()) {
          if (part.type !== 'file') continue;
          if (part.fieldname !== 'files[]' && part.fieldname !== 'files')
            throw badRequest(`${part.fieldname}: the file goes in files[]`);
          upload = {
            name: cleanFileName(part.filename),
            content: await readLimited(part.file, bulkUploadMaxBytes),
          };
        }
        if (!upload) throw badRequest('files[]: no file in the upload');
        const { name, content } = upload;
        if (!hasVisibleName(name)) return invalidFile(invisibleFileNameMessage);
        const extension = /\.(xlsx|xls)$/i.exec(name)?.[1]?.toLowerCase();
        if (!extension) return invalidFile('Only .xlsx and .xls files can be uploaded.');
        if (!content) return invalidFile(`The file is larger than ${bulkUploadMaxBytes / 1024 / 1024} MB.`);
        // docs/decisions/005: the content decides the format; .xls is read on the worker thread too.
        const format = workbookFormat(content);
        if (!format) return invalidFile('The file is not an Excel workbook.');
        const zip = format === 'xlsx' ? await zipProblem(content, bulkUploadMaxUncompressedBytes) : undefined;
        if (zip) {
          request.log.warn({ problem: zip, size: content.length }, 'bulk upload refused before reading');
          return invalidFile(
            'The file is not a workbook this portal can read, or it is too large once unpacked.',
          );
        }

        const release = slots.tryAcquire();
        if (!release) {
          reply.header('retry-after', String(busyRetryAfterSeconds));
          return answer(bulkUploadResponseTypes.busy, busyMessage);
        }
        try {
          const sha256 = createHash('sha256').update(content).digest('hex');
          // Before validation: the first import's external ids would otherwise make this one look invalid.
          if (await recentlyImported(db, principal.tenantId, sha256))
            return answer(bulkUploadResponseTypes.duplicateFile, duplicateFileMessage);

          const read = await readUpload(content);
          if (!read.ok) return invalidFile(read.problem);
          const lookups = await bulkUploadLookups(db, principal.tenantId);
          const externalIds = [
            ...new Set(read.rows.map((row) => row.cells[9]?.toLowerCase() ?? '').filter(Boolean)),
          ];
          const used = await usedExternalIds(db, principal.tenantId, externalIds);
          const { problems, valid } = await validateRowsInSlices(read.rows, lookups, used);

          if (problems.length > 0) {
            const errorWorkbook = await writeErrorWorkbook(content, problems);
            const id = await saveErrorFile(db, principal, { sha256, name, content: errorWorkbook });
            const rowsWithProblems = new Set(problems.map((problem) => problem.row)).size;
            return answer(
              bulkUploadResponseTypes.invalidFileData,
              `${problems.length} issue(s) on ${rowsWithProblems} of ${read.rows.length} row(s). Nothing was imported.`,
              id,
            );
          }
          const outcome = await importApplications(db, principal, valid, lookups.ownerRecords, {
            sha256,
            name,
          });
          if (outcome.kind === 'duplicate')
            return answer(bulkUploadResponseTypes.duplicateFile, duplicateFileMessage);
          return answer(bulkUploadResponseTypes.success, `${outcome.count} application(s) created.`);
        } finally {
          release();
        }
      },
    );
  });
}
