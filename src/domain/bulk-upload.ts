/** AM §5: the bulk upload accepts only .xlsx and .xls (checked by name before any request). */
export const isBulkUploadFileName = (name: string): boolean => /\.(xlsx|xls)$/i.test(name);

/** AM §4: the progress shown while uploading is capped at 95 until the response arrives. */
export const uploadingPercent = (loaded: number, total: number): number =>
  total > 0 ? Math.min(95, Math.max(0, Math.floor((loaded / total) * 100))) : 0;

/** AM §8 bulk upload texts, letter for letter. */
export const bulkUploadTexts = {
  title: 'Upload Applications',
  invalidData: [
    'The application upload template contains one or more issues which must be corrected prior to submission.',
    'Please download, review and correct the highlighted issues in the template file below.',
  ],
  invalidDataLink: 'Download Template & Review Issues',
  invalidDataAfter: 'Once all application issues have been resolved please re-upload the file.',
  otherError: [
    'The uploaded file is not in the expected format or an unexpected error has occurred uploading this file. Do not modify the structure of the template.',
    'Please ensure you are using the latest bulk upload template and try again.',
  ],
  success: [
    'File uploaded successfully.',
    'All applications have been uploaded successfully and are available in the application listing for review and submission to clients.',
  ],
  /** Ours: a file refused before sending. */
  wrongType: 'Only .xlsx and .xls files can be uploaded.',
} as const;
