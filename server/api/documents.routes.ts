import { Readable, Transform, type TransformCallback } from 'node:stream';
import multipart from '@fastify/multipart';
import { fileTypeStream } from 'file-type/node';
import yazl from 'yazl';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DocumentQuerySchema,
  UploadDocumentsResponseSchema,
  emptyFileMessage,
  invalidFileTypeMessage,
  type UploadedDocument,
} from '../../src/schemas/application-detail.schema.ts';
import { HttpError, badRequest, notFound } from '../http-error.ts';
import { documentsOf, findDocument, findVisibleApplicationByGuid, recordUploads, type StoredDocument } from '../db/application-detail-store.ts';
import { isUuid } from '../db/applications-store.ts';
import { tenantSettingsOf } from './configuration.routes.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import { ApplicationIdParamsSchema, applicationNotFoundMessage, viewApplicationRule, visibleApplicationOr404 } from './application-detail.routes.ts';
import { principalOf, tenantOf, type RouteContext } from './context.ts';
import { applicationIdParam } from './application-write-rule.ts';
import { attachmentHeader } from '../content-disposition.ts';
import { hasVisibleCharacter, stripBidiControls } from '../../src/schemas/visible-text.ts';

/** How far into a file the content sniffer reads (file-type's default sample). */
const sniffBytes = 4100;

/**
 * What the content of a file with each extension must sniff as (file-type's `ext`). docx and xlsx
 * are zip containers: file-type names them when the sample reaches their parts, and a plain zip
 * when it does not, so both pass. An extension not listed must sniff as itself.
 */
const sniffedAs: Record<string, readonly string[]> = {
  jpg: ['jpg'],
  jpeg: ['jpg'],
  tif: ['tif'],
  tiff: ['tif'],
  docx: ['docx', 'zip'],
  xlsx: ['xlsx', 'zip'],
  pptx: ['pptx', 'zip'],
  doc: ['cfb'],
  xls: ['cfb'],
};

/**
 * Plain text has no magic number: a file with one of these extensions passes when nothing binary
 * is recognised in it and its sample has no NUL byte (every executable and image format has some).
 */
const textTypes: Record<string, string> = { txt: 'text/plain; charset=utf-8', csv: 'text/csv; charset=utf-8' };

const mimeOfDocx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const containerMimes: Record<string, string> = {
  docx: mimeOfDocx,
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

export const extensionOf = (fileName: string) => {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
};

/** A file name as stored and shown: its last path segment, without control or bidi characters, at most 200 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = stripBidiControls(base).replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (clean.length <= 200) return clean;
  const extension = extensionOf(clean);
  return `${clean.slice(0, 200 - extension.length - 1)}.${extension}`;
}

export const invisibleFileNameMessage = 'The file name has no visible characters.';

/** A cleaned file name whose part before the extension can be seen (not only spaces or zero-width characters). */
export function hasVisibleName(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  return hasVisibleCharacter(dot > 0 ? fileName.slice(0, dot) : fileName);
}

/** Counts bytes, keeps the first `sniffBytes` and fails the stream when `limit` is passed. */
class Measure extends Transform {
  bytes = 0;
  readonly head: Buffer[] = [];
  private headBytes = 0;
  exceeded = false;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.headBytes < sniffBytes) {
      const part = chunk.subarray(0, sniffBytes - this.headBytes);
      this.head.push(part);
      this.headBytes += part.length;
    }
    if (this.bytes > this.limit) {
      this.exceeded = true;
      done(new Error('limit'));
      return;
    }
    done(null, chunk);
  }
}

/** Reads a stream to its end, discarding it (a refused file must still be read for the next part to arrive). */
const drain = (stream: Readable) =>
  new Promise<void>((resolve) => {
    if (stream.readableEnded || stream.destroyed) {
      resolve();
      return;
    }
    stream.on('end', resolve).on('error', () => resolve()).on('close', resolve);
    stream.resume();
  });

interface UploadOutcome {
  result: UploadedDocument;
  stored?: StoredDocument;
}

/** The content type to store a file under, or undefined when its content does not match its extension. */
export function acceptedContentType(extension: string, sniffedExt: string | undefined, sniffedMime: string | undefined, head: Buffer) {
  if (extension in textTypes) return sniffedExt === undefined && !head.includes(0) ? textTypes[extension] : undefined;
  if (!sniffedExt || !sniffedMime || !(sniffedAs[extension] ?? [extension]).includes(sniffedExt)) return undefined;
  return sniffedExt === 'zip' ? (containerMimes[extension] ?? sniffedMime) : sniffedMime;
}

const megabytes = (bytes: number) => `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;

/** A stream that opens its source on the first read: a zip of 50 documents holds one open at a time. */
function lazyStream(open: () => Promise<Readable | undefined>): Readable {
  return Readable.from(
    (async function* () {
      const source = await open();
      if (!source) throw new Error('A document is missing from storage.');
      yield* source;
    })(),
    { objectMode: false },
  );
}

/** Names unique within a zip: a second `a.pdf` becomes `a (2).pdf`. */
function uniqueNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    const safe = cleanFileName(name) || 'document';
    let candidate = safe;
    const dot = safe.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

/**
 * AM §7 documents: upload (multipart, several files), one download, all as a zip. Bytes go
 * through `storage` as streams (docs/decisions/004); nothing holds a file whole.
 */
export function registerDocumentRoutes({ app, db, access, config }: RouteContext, storage: FileStorage) {
  const maxFile = config.DOCUMENT_MAX_FILE_BYTES;
  const maxRequest = config.DOCUMENT_MAX_REQUEST_BYTES;

  /** Stores one part, or says why not. */
  async function acceptFile(file: Readable, rawName: string, accepted: readonly string[], budget: number): Promise<UploadOutcome> {
    const fileName = cleanFileName(rawName);
    const refuse = async (message: string): Promise<UploadOutcome> => {
      await drain(file);
      return { result: { Success: false, PublicId: '', FileName: fileName, UploadedTimestamp: 0, Message: message } };
    };
    if (!hasVisibleName(fileName)) return refuse(invisibleFileNameMessage);
    const extension = extensionOf(fileName);
    if (!extension || !accepted.includes(extension)) return refuse(invalidFileTypeMessage);

    const measure = new Measure(Math.min(maxFile, budget));
    file.on('error', (error) => measure.destroy(error));
    try {
      const sniffed = await fileTypeStream(file.pipe(measure), { sampleSize: sniffBytes });
      const contentType = acceptedContentType(extension, sniffed.fileType?.ext, sniffed.fileType?.mime, Buffer.concat(measure.head));
      if (!contentType) {
        await drain(sniffed);
        // Nothing to sniff is no wrong type: the person is told the file is empty (issue 32).
        const message = measure.bytes === 0 ? emptyFileMessage : invalidFileTypeMessage;
        return { result: { Success: false, PublicId: '', FileName: fileName, UploadedTimestamp: 0, Message: message } };
      }
      const { key, size } = await storage.put(sniffed);
      return { result: { Success: true, PublicId: '', FileName: fileName, UploadedTimestamp: 0, Message: '' }, stored: { originalFileName: fileName, contentType, size, storageKey: key } };
    } catch (error) {
      if (!measure.exceeded) throw error;
      await drain(file);
      const message = measure.bytes > maxFile ? `The file is larger than ${megabytes(maxFile)}.` : `The upload is larger than ${megabytes(maxRequest)} in all.`;
      return { result: { Success: false, PublicId: '', FileName: fileName, UploadedTimestamp: 0, Message: message } };
    }
  }

  app.register(async (scope) => {
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    // Limits per part: the file size is enforced by Measure (a per-file result, not a failed request).
    // busboy stops a file one byte past the limit (its default is bodyLimit, 1 MiB); Measure turns that into the file's result.
    await typed.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: maxFile + 1, files: config.DOCUMENT_MAX_FILES, fields: 20, fieldSize: 1024, parts: config.DOCUMENT_MAX_FILES + 20 },
    });

    typed.post(
      '/api/document/upload/:id',
      {
        config: { application: applicationIdParam() },
        preValidation: access.requireAccess({ ...viewApplicationRule, claims: ['document.upload'] }),
        schema: { params: ApplicationIdParamsSchema, response: { 200: UploadDocumentsResponseSchema } },
      },
      async (request) => {
        const principal = principalOf(request);
        if (!request.isMultipart()) throw badRequest('body: must be multipart/form-data with one or more files');
        const declared = Number(request.headers['content-length'] ?? 0);
        if (declared > maxRequest + 64 * 1024) throw new HttpError(413, `body: an upload may carry at most ${megabytes(maxRequest)}`);
        const application = await visibleApplicationOr404(db, principal, request.params.id);
        const accepted = tenantSettingsOf(tenantOf(request)).AcceptedDocumentUploadExtensions.map((extension) => extension.toLowerCase());

        const outcomes: UploadOutcome[] = [];
        let used = 0;
        try {
          for await (const part of request.parts()) {
            if (part.type !== 'file') continue;
            const outcome = await acceptFile(part.file, part.filename, accepted, maxRequest - used);
            used += outcome.stored?.size ?? 0;
            outcomes.push(outcome);
          }
        } catch (error) {
          await Promise.all(outcomes.flatMap((outcome) => (outcome.stored ? [storage.delete(outcome.stored.storageKey)] : [])));
          const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
          if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
            throw badRequest(`files: at most ${config.DOCUMENT_MAX_FILES} files per upload`);
          }
          throw error;
        }
        if (outcomes.length === 0) throw badRequest('files: no file in the upload');

        const stored = outcomes.flatMap((outcome) => (outcome.stored ? [outcome.stored] : []));
        let recorded: { publicId: string; uploadedAt: number }[];
        try {
          recorded = await recordUploads(db, principal, application.id, stored);
        } catch (error) {
          await Promise.all(stored.map((document) => storage.delete(document.storageKey)));
          throw error;
        }
        let next = 0;
        const results = outcomes.map((outcome) => {
          if (!outcome.stored) return outcome.result;
          const record = recorded[next++];
          return { ...outcome.result, PublicId: record?.publicId ?? '', UploadedTimestamp: record?.uploadedAt ?? 0 };
        });
        const failed = results.filter((result) => !result.Success).length;
        return {
          UploadedDocuments: results,
          ErrorNo: failed === 0 ? 0 : 1,
          Message: failed === 0 ? '' : `${failed} of ${results.length} files could not be uploaded.`,
        };
      },
    );
  });

  app.get(
    '/api/document',
    {
      preValidation: access.requireAccess({ ...viewApplicationRule, claims: ['document.download'] }),
      schema: { querystring: DocumentQuerySchema },
    },
    async (request, reply) => {
      const { ApplicationGuid, LabDocsId } = request.query;
      if (!isUuid(ApplicationGuid)) throw badRequest('ApplicationGuid: must be a GUID');
      if (!isUuid(LabDocsId)) throw badRequest('LabDocsId: must be a GUID');
      const application = await findVisibleApplicationByGuid(db, principalOf(request), ApplicationGuid);
      if (!application) throw notFound(applicationNotFoundMessage);
      const document = await findDocument(db, application.id, LabDocsId);
      if (!document) throw notFound('LabDocsId: no such document on this application.');
      const content = await storage.get(document.storageKey);
      if (!content) throw new Error(`Document ${document.publicId} is missing from storage (${document.storageKey}).`);
      return reply
        .header('content-type', document.contentType)
        .header('content-length', String(document.size))
        .header('content-disposition', attachmentHeader(document.originalFileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(content);
    },
  );

  app.get(
    '/api/document/zip/:id',
    {
      preValidation: access.requireAccess({ ...viewApplicationRule, claims: ['document.download'] }),
      schema: { params: ApplicationIdParamsSchema },
    },
    async (request, reply) => {
      const application = await visibleApplicationOr404(db, principalOf(request), request.params.id);
      const documents = await documentsOf(db, application.id);
      const zip = new yazl.ZipFile();
      const names = uniqueNames(documents.map((document) => document.originalFileName));
      documents.forEach((document, index) => {
        // Stored, not deflated: PDFs and images are compressed already, and storing streams at disk speed.
        zip.addReadStream(lazyStream(() => storage.get(document.storageKey)), names[index] ?? `document-${index + 1}`, {
          compress: false,
          mtime: document.uploadedAt,
        });
      });
      zip.end();
      zip.outputStream.on('error', (error) => request.log.error({ err: error }, 'zipping documents failed'));
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', attachmentHeader(`application-${application.id}-documents.zip`))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(zip.outputStream);
    },
  );
}
