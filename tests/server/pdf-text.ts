import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFName, PDFRawStream, type PDFPage } from '@cantoo/pdf-lib';

/**
 * The text a PDF built by server/pdf/application-report.ts shows, page by page. pdf-lib parses the
 * file but does not extract text, so this reads the content streams itself: each is inflated
 * (pdf-lib writes them Flate-compressed) and the strings of the text-showing operators are decoded.
 * It knows the one shape pdf-lib writes for standard fonts — hex strings (`<48656C6C6F> Tj`) in
 * WinAnsi, which matches latin1 for the characters the report uses — and nothing more general.
 */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string[]; document: PDFDocument }> {
  const document = await PDFDocument.load(bytes);
  return { pages: document.getPageCount(), text: document.getPages().map(pageText), document };
}

function pageText(page: PDFPage): string {
  const contents = page.node.get(PDFName.of('Contents'));
  const streams = contents instanceof PDFArray ? contents.asArray() : [contents];
  const lines: string[] = [];
  for (const reference of streams) {
    const stream = reference ? page.doc.context.lookup(reference) : undefined;
    if (!(stream instanceof PDFRawStream)) continue;
    const filter = stream.dict.get(PDFName.of('Filter'));
    const raw = Buffer.from(stream.contents);
    const source = (filter === PDFName.of('FlateDecode') ? inflateSync(raw) : raw).toString('latin1');
    for (const match of source.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) lines.push(Buffer.from(match[1] ?? '', 'hex').toString('latin1'));
  }
  return lines.join('\n');
}
