import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { ReportTruncated, Writer, muted } from './pdf-writer.ts';
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
export { maxPages, maxListRows, maxValueLength } from './pdf-writer.ts';

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
