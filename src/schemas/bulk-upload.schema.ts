import * as z from 'zod/mini';

/** AM §7 bulk upload ResponseType values. InvalidFileData is the spec's; the others are ours. */
export const bulkUploadResponseTypes = {
  success: 'Success',
  /** One or more cells are invalid: nothing was imported; the error workbook is at TemporaryErrorFileId. */
  invalidFileData: 'InvalidFileData',
  /** Not a workbook, not the template's structure, too large, or .xls (AM §8 "other errors"). */
  invalidFile: 'InvalidFile',
  /** The same file was imported in the last hour (AM §8 "other errors", with our Message). */
  duplicateFile: 'DuplicateFile',
  /** This server is reading as many uploads as it may at once: try again shortly (retry-after says when). */
  busy: 'Busy',
} as const;

/** POST /api/application/bulkupload (multipart, field files[]): AM §3 bulk upload response. */
export const BulkUploadResponseSchema = z.object({
  Success: z.boolean(),
  Message: z.string(),
  ResponseType: z.string(),
  TemporaryErrorFileId: z.nullable(z.string()),
});
export type BulkUploadResponse = z.infer<typeof BulkUploadResponseSchema>;

/** GET /api/application/bulkupload/errorfile/{id}. */
export const BulkUploadErrorFileParamsSchema = z.object({ id: z.string() });

/** AM §5: the bulk upload accepts only these extensions. */
export const bulkUploadExtensions = ['.xlsx', '.xls'] as const;
