import type { VerificationRecord } from '../db/verifications-store.ts';
import type { CompanyExtract } from '../providers/company-registry/company-registry.ts';
import { buildCompanyReport, buildIndividualReport, type ReportRecord } from '../pdf/verification-report.ts';

/**
 * A verification record's report: its address (`reportLink`), its file name and its bytes, rebuilt
 * from what the record holds (the registry extract as at its time, or the verify request), so a
 * download always gives the same file for the same record.
 */

export const verificationBase = '/entity-verification/api/v1';

export const reportLinkOf = (record: Pick<VerificationRecord, 'id' | 'kind'>) => `${verificationBase}/${record.kind}/${record.id}/report`;

/** A record has a report once it is no longer Pending (SUV §2: the download is disabled while Pending). */
export const hasReport = (record: Pick<VerificationRecord, 'status' | 'details'>) =>
  record.status.toLowerCase() !== 'pending' && Object.keys(record.details).length > 0;

export const reportNameOf = (record: Pick<VerificationRecord, 'id' | 'kind' | 'companyNumber'>) =>
  record.kind === 'company' ? `ASIC-extract-${record.companyNumber}-C${record.id}.pdf` : `verification-report-V${record.id}.pdf`;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const at = (source: unknown, ...path: string[]): string => {
  let value: unknown = source;
  for (const part of path) value = isObject(value) ? value[part] : undefined;
  return typeof value === 'string' ? value : '';
};

/** What the individual report prints of the request; document numbers only by their last characters. */
export function individualFacts(details: Json): [string, string][] {
  const masked = (value: string) => (value.length > 3 ? `${'*'.repeat(value.length - 3)}${value.slice(-3)}` : value);
  const address = ['unitNumber', 'streetNumber', 'streetName', 'streetType', 'suburb', 'state', 'postcode']
    .map((key) => at(details, 'individual', 'address', key))
    .filter(Boolean)
    .join(' ');
  const facts: [string, string][] = [
    ['Date of birth', at(details, 'individual', 'dateOfBirth')],
    ['Address', address],
    ['Mobile', at(details, 'individual', 'contact', 'mobileNumber')],
  ];
  if (isObject(details.driversLicence)) facts.push(['Driver licence', `${at(details, 'driversLicence', 'stateCode')} ${masked(at(details, 'driversLicence', 'Number'))}`]);
  if (isObject(details.medicareCard)) facts.push(['Medicare card', `${at(details, 'medicareCard', 'cardColour')} ${masked(at(details, 'medicareCard', 'cardNumber'))}`]);
  if (isObject(details.passport)) facts.push(['Passport', `${at(details, 'passport', 'countryCode')} ${masked(at(details, 'passport', 'number'))}`]);
  return facts.filter(([, value]) => value.trim() !== '');
}

function isExtract(value: Json): value is Json & CompanyExtract {
  return typeof value.companyNumber === 'string' && typeof value.asAt === 'string' && Array.isArray(value.officeholders) && Array.isArray(value.shareStructure);
}

export async function reportBytes(record: VerificationRecord, tenantName: string): Promise<Uint8Array> {
  const header: ReportRecord = {
    id: record.id,
    tenantName,
    refCode: record.refCode,
    requesterName: record.requesterName,
    createdAt: record.createdAt,
    completedAt: record.completedAt,
  };
  if (record.kind === 'company') {
    if (!isExtract(record.details)) throw new Error(`Verification ${record.id} holds no registry extract.`);
    return buildCompanyReport(header, record.details);
  }
  return buildIndividualReport(header, {
    name: record.subjectName,
    requestType: record.requestType,
    status: record.status,
    overallResult: record.overallResult,
    provider: record.provider,
    providerReference: record.providerReference,
    facts: individualFacts(record.details),
  });
}
