import { PDFDocument, StandardFonts, degrees, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { ApplicationDetail } from '../../src/schemas/application-detail.schema.ts';

/**
 * The application report (AM §2 report items, §7 GET /report) as a PDF built from the detail the
 * caller may read: header, details, applicants and approvals, requirements, outstanding documents
 * and the documents list. 'Draft' until the application is complete, 'Final' after.
 *
 * Bounded whatever the data: every value is cut to `maxValueLength`, lists to `maxListRows`, and the
 * document to `maxPages` pages (a last line says what was left out), so a report stays well under a
 * megabyte. Text uses the PDF standard fonts (WinAnsi): characters outside it print as '?'.
 */
export const maxPages = 40;
export const maxListRows = 500;
export const maxValueLength = 300;

export type ReportKind = 'Draft' | 'Final';

export interface ReportInput {
  kind: ReportKind;
  tenantName: string;
  detail: ApplicationDetail;
  generatedAt: Date;
  generatedBy: string;
}

/** The file name the download carries: `application-123-final-report.pdf`. */
export const reportFileName = (applicationId: number, kind: ReportKind) => `application-${applicationId}-${kind.toLowerCase()}-report.pdf`;

const pad = (value: number) => String(value).padStart(2, '0');
/** DD/MM/YYYY HH:mm in UTC, as the detail shows dates (AM §3), with the zone said on the page. */
export function formatTimestamp(unixSeconds: number | null): string {
  if (unixSeconds === null || unixSeconds < 0) return '';
  const date = new Date(unixSeconds * 1000);
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

const pageSize: [number, number] = [595.28, 841.89]; // A4
const margin = 50;
const bodySize = 10;
const lineGap = 4;
const ink = rgb(0.11, 0.14, 0.19);
const muted = rgb(0.36, 0.4, 0.46);

class ReportTruncated extends Error {}

/** Lays text out top to bottom, page after page. */
class Writer {
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

const approvalText = (status: string) => (status === 'Approved' || status === 'Declined' ? status : 'Pending');

/** Builds the report; resolves to the PDF's bytes. */
export async function buildApplicationReport({ kind, tenantName, detail, generatedAt, generatedBy }: ReportInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const title = `${kind} Report: Application ${detail.ApplicationID}`;
  pdf.setTitle(title);
  pdf.setAuthor(tenantName);
  pdf.setSubject(`${tenantName} application ${detail.ApplicationID}`);
  pdf.setProducer('Back-office portal');
  pdf.setCreator('Back-office portal');
  pdf.setCreationDate(generatedAt);
  pdf.setModificationDate(generatedAt);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const writer = new Writer(pdf, regular, bold, kind === 'Draft');
  const generated = formatTimestamp(Math.floor(generatedAt.getTime() / 1000));

  try {
    writer.text(tenantName, { size: 11, color: muted });
    writer.text(title, { size: 18, bold: true });
    writer.text(`${detail.AccountName || detail.PrimaryApplicantName} · Generated ${generated} UTC by ${generatedBy}`, { color: muted });
    if (kind === 'Draft') writer.text('Draft: the application is not complete; its contents may still change.', { bold: true });

    writer.heading('Details');
    const details: [string, string][] = [
      ['Application ID', String(detail.ApplicationID)],
      ['Account name', detail.AccountName],
      ['Status', detail.Status],
      ['Completed', detail.IsComplete ? formatTimestamp(detail.DateCompletedTimestamp) : `No (${detail.CompletionPercentage}%)`],
      ['Created', formatTimestamp(detail.DateCreatedTimestamp)],
      ['Signing mode', detail.ApplicationModeCode],
      ['Application type', detail.ApplicationType],
      ['Channel', detail.Channel],
      ['Primary applicant', detail.PrimaryApplicantName],
      ['Phone', detail.PrimaryApplicantPhone],
      ['Email', detail.Email],
      ['Owner', detail.AdviserName],
      ['Assignee', detail.AssigneeDisplayName],
      ['Products', detail.ProductDisplayNameList.join(', ')],
      ['Sub-brand', detail.SubBrandName],
      ['External ID', detail.ExternalID],
      ['Account number', detail.AccountNumber],
      ['Investment amount', detail.InvestmentAmount.toFixed(2)],
      ['Promo code', detail.PromoCode],
      ['Label', detail.Label],
      ['Tag', detail.SystemLabel],
    ];
    for (const [label, value] of details) writer.row(label, value || '-');

    writer.heading('Applicants and approvals');
    writer.list(
      detail.ApplicantApprovals,
      'No applicants',
      (applicant) =>
        `${applicant.ApplicantName}: ${approvalText(applicant.Status)}${applicant.UpdateDate === null ? '' : ` (${formatTimestamp(applicant.UpdateDate)})`}${applicant.IsMFALocked ? ', locked' : ''}`,
    );
    if (detail.ApplicationTaxInformations.length > 0) {
      writer.heading('Tax information');
      writer.list(detail.ApplicationTaxInformations, '', (tax) => `${tax.ApplicantName}: ${tax.Tfn ? 'Provided' : 'Not Provided'}`);
    }

    writer.heading('Requirements');
    writer.list(
      detail.Requirements,
      'No requirements',
      (requirement) => `${requirement.Name}: ${requirement.ResultText || (requirement.Result === 0 ? 'Passed' : 'Not passed')}`,
    );

    writer.heading('Outstanding documents');
    writer.list(detail.OutstandingDocuments, 'None', (document) => document.Name);

    if (detail.BusinessRuleViolations.length > 0) {
      writer.heading('Exceptions');
      writer.list(detail.BusinessRuleViolations, '', (violation) => `${violation.ViolationName} (${formatTimestamp(violation.ViolationDateTimeStamp)})`);
    }

    writer.heading('Documents');
    writer.list(
      detail.Documents,
      'No documents uploaded',
      (document) => `${document.OriginalFileName} (${document.ArtifactFriendlyName}), uploaded ${formatTimestamp(document.UploadedTimestamp)}`,
    );
  } catch (error) {
    if (!(error instanceof ReportTruncated)) throw error;
    writer.truncated();
  }
  writer.footers(`${tenantName} · ${title} · ${kind === 'Draft' ? 'DRAFT' : 'FINAL'}`);
  return pdf.save();
}
