import { describe, expect, it } from 'vitest';
import { acceptedContentType, cleanFileName, extensionOf } from '../../server/api/documents.routes.ts';
import { attachmentHeader } from '../../server/content-disposition.ts';

/**
 * The rules an uploaded or downloaded file's name and content go through (documents.routes.ts),
 * case by case: what is stored and shown, what a browser is told to save, and which content passes
 * for which extension. The upload and download routes run them end to end in document-storage and
 * application-detail tests.
 */
describe('a file name as stored and shown', () => {
  it('keeps the last path segment of either kind of separator', () => {
    expect(cleanFileName('C:\\Users\\sam\\passport.pdf')).toBe('passport.pdf');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('plain.pdf')).toBe('plain.pdf');
  });

  it('drops control characters and the spaces around the name', () => {
    expect(cleanFileName('  a\u0000b\u001f\u007fc.pdf  ')).toBe('abc.pdf');
    expect(cleanFileName('tab\there.pdf')).toBe('tabhere.pdf');
    expect(cleanFileName('\u0000')).toBe('');
  });

  it('cuts a name over 200 characters to 200, keeping its extension', () => {
    const exact = `${'x'.repeat(196)}.pdf`;
    expect(cleanFileName(exact)).toBe(exact);
    const long = cleanFileName(`${'y'.repeat(250)}.jpeg`);
    expect(long).toBe(`${'y'.repeat(195)}.jpeg`);
    expect(long).toHaveLength(200);
    const bare = 'z'.repeat(200);
    expect(cleanFileName(bare)).toBe(bare);
  });
});

describe('the extension a name has', () => {
  it.each([
    ['scan.PDF', 'pdf'],
    ['archive.tar.GZ', 'gz'],
    ['.profile', 'profile'],
    ['README', ''],
    ['trailing.', ''],
  ])('%s has %j', (name, extension) => {
    expect(extensionOf(name)).toBe(extension);
  });
});

describe('the content-disposition of a download', () => {
  it('names an ASCII file as it is', () => {
    expect(attachmentHeader('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
  });

  it('replaces quotes, backslashes, percent signs and non-ASCII in the fallback, and keeps the real name encoded', () => {
    expect(attachmentHeader('Zoë "final" 100%\\x.pdf')).toBe(
      `attachment; filename="Zo_ _final_ 100__x.pdf"; filename*=UTF-8''Zo%C3%AB%20%22final%22%20100%25%5Cx.pdf`,
    );
  });

  it("encodes the characters encodeURIComponent leaves alone that RFC 5987 does not allow: ' ( ) *", () => {
    expect(attachmentHeader("it's (1)*.pdf")).toBe(`attachment; filename="it's (1)*.pdf"; filename*=UTF-8''it%27s%20%281%29%2A.pdf`);
  });

  it('falls back to "document" for a name with nothing printable', () => {
    expect(attachmentHeader('')).toBe(`attachment; filename="document"; filename*=UTF-8''`);
  });
});

describe('the content type a file is stored under', () => {
  const text = Buffer.from('Name,Amount\nSam,12\n');

  it('takes text for .txt and .csv only when nothing binary is recognised and there is no NUL byte', () => {
    expect(acceptedContentType('txt', undefined, undefined, text)).toBe('text/plain; charset=utf-8');
    expect(acceptedContentType('csv', undefined, undefined, text)).toBe('text/csv; charset=utf-8');
    expect(acceptedContentType('csv', undefined, undefined, Buffer.from('MZ\u0000\u0000'))).toBeUndefined();
    expect(acceptedContentType('txt', 'png', 'image/png', text)).toBeUndefined();
  });

  it('takes a binary file whose content sniffs as its extension, under the sniffed type', () => {
    expect(acceptedContentType('pdf', 'pdf', 'application/pdf', text)).toBe('application/pdf');
    expect(acceptedContentType('jpg', 'jpg', 'image/jpeg', text)).toBe('image/jpeg');
    expect(acceptedContentType('jpeg', 'jpg', 'image/jpeg', text)).toBe('image/jpeg');
    expect(acceptedContentType('tif', 'tif', 'image/tiff', text)).toBe('image/tiff');
    expect(acceptedContentType('tiff', 'tif', 'image/tiff', text)).toBe('image/tiff');
    expect(acceptedContentType('doc', 'cfb', 'application/x-cfb', text)).toBe('application/x-cfb');
    expect(acceptedContentType('xls', 'cfb', 'application/x-cfb', text)).toBe('application/x-cfb');
  });

  it('refuses content that is not what the extension says, or is not recognised', () => {
    expect(acceptedContentType('pdf', 'png', 'image/png', text)).toBeUndefined();
    expect(acceptedContentType('pdf', undefined, undefined, text)).toBeUndefined();
    expect(acceptedContentType('pdf', 'pdf', undefined, text)).toBeUndefined();
    expect(acceptedContentType('pdf', undefined, 'application/pdf', text)).toBeUndefined();
    expect(acceptedContentType('docx', 'pdf', 'application/pdf', text)).toBeUndefined();
    // A zip is no spreadsheet or presentation of another kind, nor a Word file of the old kind.
    expect(acceptedContentType('xlsx', 'pptx', 'application/x-pptx', text)).toBeUndefined();
    expect(acceptedContentType('doc', 'zip', 'application/zip', text)).toBeUndefined();
  });

  it('names an Office file that sniffs as a plain zip by its extension', () => {
    expect(acceptedContentType('docx', 'zip', 'application/zip', text)).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(acceptedContentType('xlsx', 'zip', 'application/zip', text)).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(acceptedContentType('pptx', 'zip', 'application/zip', text)).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation');
    expect(acceptedContentType('zip', 'zip', 'application/zip', text)).toBe('application/zip');
    expect(acceptedContentType('docx', 'docx', 'application/x-docx-as-sniffed', text)).toBe('application/x-docx-as-sniffed');
    expect(acceptedContentType('xlsx', 'xlsx', 'application/x-xlsx-as-sniffed', text)).toBe('application/x-xlsx-as-sniffed');
    expect(acceptedContentType('pptx', 'pptx', 'application/x-pptx-as-sniffed', text)).toBe('application/x-pptx-as-sniffed');
  });
});
