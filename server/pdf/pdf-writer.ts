import { degrees, rgb, type PDFDocument, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';

/**
 * Lays report text out top to bottom, page after page, in the PDF standard fonts (WinAnsi:
 * characters outside it print as '?'). Shared by the application report and the verification
 * reports; bounded by `maxPages` and `maxValueLength`.
 */
export const maxPages = 40;
export const maxListRows = 500;
export const maxValueLength = 300;

const pageSize: [number, number] = [595.28, 841.89]; // A4
const margin = 50;
const bodySize = 10;
const lineGap = 4;
export const ink = rgb(0.11, 0.14, 0.19);
export const muted = rgb(0.36, 0.4, 0.46);

export class ReportTruncated extends Error {}

/** Lays text out top to bottom, page after page. */
export class Writer {
  private page!: PDFPage;
  private y = 0;
  readonly pages: PDFPage[] = [];
  private readonly supported: Set<number>;

  constructor(
    private readonly pdf: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly draft: boolean,
  ) {
    this.supported = new Set(regular.getCharacterSet());
    this.newPage();
  }

  /** Only what the standard font can draw; no control characters; at most `maxValueLength` characters. */
  clean(value: string): string {
    const flat = value.replace(/\s+/g, ' ').trim();
    const cut = flat.length > maxValueLength ? `${flat.slice(0, maxValueLength - 1)}…` : flat;
    return Array.from(cut, (ch) => (this.supported.has(ch.codePointAt(0) ?? 0) ? ch : '?')).join('');
  }

  private newPage() {
    if (this.pages.length >= maxPages) throw new ReportTruncated();
    this.page = this.pdf.addPage(pageSize);
    this.pages.push(this.page);
    this.y = pageSize[1] - margin;
    if (this.draft) {
      this.page.drawText('DRAFT', { x: 150, y: 250, size: 120, font: this.bold, color: rgb(0.92, 0.92, 0.92), rotate: degrees(45) });
    }
  }

  private room(height: number) {
    if (this.y - height < margin + 20) this.newPage();
  }

  /** Words wrapped to `width` at `size`. */
  private wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      // A single word wider than the line is cut into pieces that fit.
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
        let fit = rest.length - 1;
        while (fit > 1 && font.widthOfTextAtSize(rest.slice(0, fit), size) > width) fit--;
        lines.push(rest.slice(0, fit));
        rest = rest.slice(fit);
      }
      line = rest;
    }
    if (line) lines.push(line);
    return lines.length > 0 ? lines : [''];
  }

  text(value: string, options: { size?: number; bold?: boolean; color?: typeof ink; x?: number; width?: number } = {}) {
    const size = options.size ?? bodySize;
    const font = options.bold ? this.bold : this.regular;
    const x = options.x ?? margin;
    const width = options.width ?? pageSize[0] - margin - x;
    for (const line of this.wrap(this.clean(value), font, size, width)) {
      this.room(size + lineGap);
      this.y -= size;
      this.page.drawText(line, { x, y: this.y, size, font, color: options.color ?? ink });
      this.y -= lineGap;
    }
  }

  heading(value: string) {
    this.room(40);
    this.y -= 12;
    this.text(value, { size: 13, bold: true });
    this.page.drawLine({ start: { x: margin, y: this.y }, end: { x: pageSize[0] - margin, y: this.y }, thickness: 0.5, color: muted });
    this.y -= 6;
  }

  /** Label and value side by side; the value wraps under itself. */
  row(label: string, value: string) {
    const labelWidth = 150;
    const lines = this.wrap(this.clean(value), this.regular, bodySize, pageSize[0] - 2 * margin - labelWidth);
    this.room(bodySize + lineGap);
    this.y -= bodySize;
    this.page.drawText(this.clean(label), { x: margin, y: this.y, size: bodySize, font: this.bold, color: ink });
    lines.forEach((line, index) => {
      if (index > 0) {
        this.room(bodySize + lineGap);
        this.y -= bodySize;
      }
      this.page.drawText(line, { x: margin + labelWidth, y: this.y, size: bodySize, font: this.regular, color: ink });
      this.y -= lineGap;
    });
  }

  /** A list of items, each one line of text (wrapped); at most `maxListRows`, then how many more. */
  list<T>(items: readonly T[], empty: string, describe: (item: T) => string) {
    if (items.length === 0) {
      this.text(empty, { color: muted });
      return;
    }
    for (const item of items.slice(0, maxListRows)) this.text(`- ${describe(item)}`);
    if (items.length > maxListRows) this.text(`... and ${items.length - maxListRows} more`, { color: muted });
  }

  truncated() {
    // Below the last line written: `room` keeps the bottom 20 points of the text area free.
    this.page.drawText('The report is longer than this document allows; the rest is left out.', {
      x: margin,
      y: margin + 4,
      size: bodySize,
      font: this.bold,
      color: ink,
    });
  }

  footers(text: string) {
    this.pages.forEach((page, index) => {
      page.drawText(this.clean(`${text} · Page ${index + 1} of ${this.pages.length}`), { x: margin, y: margin - 20, size: 8, font: this.regular, color: muted });
    });
  }
}

