import { createHash } from 'node:crypto';
import { PDFDocument, PDFHexString, StandardFonts } from '@cantoo/pdf-lib';
import { ReportTruncated, Writer, muted } from './pdf-writer.ts';
import type { CompanyExtract } from '../providers/company-registry/company-registry.ts';
import { overallResultText, statusText } from '../../src/domain/verifications.ts';

/**
 * The Verifications area's reports (SUV §7 GET {reportLink}): the company registry extract and the
 * individual verification report. Reproducible: every value, the creation date and the document id
 * come from the record, so the same record always gives the same bytes (a test compares them).
 */

export interface ReportRecord {
  id: number;
  tenantName: string;
  refCode: string;
  requesterName: string;
  createdAt: Date;
  completedAt: Date | null;
}

const pad = (value: number) => String(value).padStart(2, '0');
/** DD/MM/YYYY HH:mm UTC. */
export function reportTime(date: Date): string {
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

const isoDay = (value: string) => (/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value) ? `${value.slice(8, 10)}/${value.slice(5, 7)}/${value.slice(0, 4)}` : value);
const acnText = (acn: string) => acn.replace(/^([0-9]{3})([0-9]{3})([0-9]{3})$/, '$1 $2 $3');

async function startDocument(title: string, record: ReportRecord, at: Date) {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setAuthor(record.tenantName);
  pdf.setSubject(`${record.tenantName} verification ${record.id}`);
  pdf.setProducer('Back-office portal');
  pdf.setCreator('Back-office portal');
  pdf.setCreationDate(at);
  pdf.setModificationDate(at);
  // The trailer's document id, from the record: the same record, the same file.
  const id = createHash('sha256').update(`verification:${record.id}:${at.toISOString()}`).digest('hex').slice(0, 32);
  pdf.context.trailerInfo.ID = pdf.context.obj([PDFHexString.of(id), PDFHexString.of(id)]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  return { pdf, writer: new Writer(pdf, regular, bold, false) };
}

async function finish(pdf: PDFDocument, writer: Writer, footer: string, body: () => void) {
  try {
    body();
  } catch (error) {
    if (!(error instanceof ReportTruncated)) throw error;
    writer.truncated();
  }
  writer.footers(footer);
  return pdf.save();
}

/** The registry report: name, ACN, office, status, officeholders, shares, "as at" and the reference code. */
export async function buildCompanyReport(record: ReportRecord, extract: CompanyExtract): Promise<Uint8Array> {
  const asAt = new Date(extract.asAt);
  const title = `Company extract: ${extract.companyName}`;
  const { pdf, writer } = await startDocument(title, record, asAt);
  return finish(pdf, writer, `${record.tenantName} · Verification C${record.id} · ASIC company extract`, () => {
    writer.text(record.tenantName, { size: 11, color: muted });
    writer.text('ASIC Current Company Extract', { size: 18, bold: true });
    writer.text(`As at ${reportTime(asAt)} · Requested by ${record.requesterName}`, { color: muted });
    writer.heading('Company');
    const rows: [string, string][] = [
      ['Company name', extract.companyName],
      ['ACN', acnText(extract.companyNumber)],
      ['Status', extract.status],
      ['Type', extract.companyType],
      ['Registered on', isoDay(extract.registeredOn)],
      ['Registered office', extract.registeredOffice],
      ['Verification ID', `C${record.id}`],
      ['Reference code', record.refCode || '-'],
    ];
    for (const [label, value] of rows) writer.row(label, value);
    writer.heading('Directors');
    writer.list(extract.officeholders.filter((holder) => holder.role === 'Director'), 'None recorded', (holder) => `${holder.name}, appointed ${isoDay(holder.appointed)}`);
    writer.heading('Secretaries');
    writer.list(extract.officeholders.filter((holder) => holder.role === 'Secretary'), 'None recorded', (holder) => `${holder.name}, appointed ${isoDay(holder.appointed)}`);
    writer.heading('Share structure');
    writer.list(
      extract.shareStructure,
      'No shares recorded',
      (share) => `${share.classCode} ${share.title}: ${share.sharesIssued.toLocaleString('en-AU')} issued, $${share.amountPaid.toLocaleString('en-AU')} paid`,
    );
  });
}

export interface IndividualReportInput {
  name: string;
  requestType: string;
  status: string;
  overallResult: string;
  provider: string;
  providerReference: string;
  /** The request's facts worth printing (date of birth, address, document), label → value. */
  facts: [string, string][];
}

/** The individual verification report: who, what was checked, the result, and the reference code. */
export async function buildIndividualReport(record: ReportRecord, input: IndividualReportInput): Promise<Uint8Array> {
  const at = record.completedAt ?? record.createdAt;
  const title = `Verification report: ${input.name}`;
  const { pdf, writer } = await startDocument(title, record, at);
  return finish(pdf, writer, `${record.tenantName} · Verification V${record.id} · ${input.requestType}`, () => {
    writer.text(record.tenantName, { size: 11, color: muted });
    writer.text('Individual Verification Report', { size: 18, bold: true });
    writer.text(`Completed ${reportTime(at)} · Requested by ${record.requesterName}`, { color: muted });
    writer.heading('Result');
    const rows: [string, string][] = [
      ['Applicant', input.name],
      ['Verification ID', `V${record.id}`],
      ['Verification type', input.requestType],
      ['Status', statusText(input.status)],
      ['Result', overallResultText(input.overallResult)],
      ['Provider', input.provider],
      ['Provider reference', input.providerReference],
      ['Requested', reportTime(record.createdAt)],
      ['Reference code', record.refCode || '-'],
    ];
    for (const [label, value] of rows) writer.row(label, value);
    writer.heading('Details checked');
    for (const [label, value] of input.facts) writer.row(label, value || '-');
  });
}
