import dayjs from 'dayjs';
import duration from 'dayjs/plugin/duration';
import relativeTime from 'dayjs/plugin/relativeTime';
import {
  commentMaxLength,
  emptyCommentMessage,
  longCommentMessage,
  type ApplicantApproval,
  type ApplicationDetail,
  type TaxInformation,
} from '../schemas/application-detail.schema.ts';
import { statusStyle, type StatusStyle } from './application-status.ts';
import { splitIntoWords } from './code-words.ts';
import { formatAmount, productsDisplay, type ProductsDisplay } from './list-format.ts';
import { hasClaim, type Claims } from './permissions.ts';
import { isWritable } from './application-write-rule.ts';

dayjs.extend(duration);
dayjs.extend(relativeTime);

/**
 * The application detail screen's display rules (AM §2 detail screen, §4 display rules, §6 claims,
 * §8 texts, §9 formats). Pure: the views and the detail machine ask here, never decide themselves.
 */

/** AM §2, letter for letter. */
export const loadingApplicationText = 'Loading application...';
/** Issue 32: a refetch that fails keeps the loaded screen (the not-found text is for a failed load). */
export const applicationRefreshFailedText = 'The application could not be refreshed.';
export const applicationNotFoundText =
  'This application cannot be found. The application may no longer exist or you might not have permission to view it.';
/** AM §8. */
export const vpnUnavailableText = 'VPN detection results are not available for this application.';
export const noDocumentsText = 'No documents uploaded';

/** AM §4: the detail's status badge uses the list's styles (Documents pending, Complete, Locked; others plain). */
export const detailStatusStyle = (status: string): StatusStyle => statusStyle(status);

export type ApproverStyle = 'success' | 'failed' | 'pending' | 'locked';

export interface ApproverDisplay {
  text: string;
  style: ApproverStyle;
  /** AM §4: an MFA-locked approver can be unlocked (the action comes with the actions menu). */
  unlockable: boolean;
}

/** AM §4: Approved is success, Declined is failed, anything else pending; an MFA-locked approver shows 'Locked'. */
export function approverDisplay(approval: Pick<ApplicantApproval, 'Status' | 'IsMFALocked'>): ApproverDisplay {
  if (approval.IsMFALocked) return { text: 'Locked', style: 'locked', unlockable: true };
  if (approval.Status === 'Approved') return { text: 'Approved', style: 'success', unlockable: false };
  if (approval.Status === 'Declined') return { text: 'Declined', style: 'failed', unlockable: false };
  return { text: 'Pending', style: 'pending', unlockable: false };
}

/** AM §8 exception names; any other name is humanised and shown as plain text (ARCHITECTURE §5). */
const exceptionNames: Record<string, string> = {
  CALIFORNIARESIDENT: 'California Resident',
  BANKACCOUNTNAMEMATCH: 'Bank Account Name Mismatch',
};

export function exceptionName(violationName: string): string {
  const known = exceptionNames[violationName];
  if (known !== undefined) return known;
  const words = violationName
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    // A run of capitals ('DUPLICATEAPPLICATION') is split into its words where they are known.
    .flatMap((word) => (/^[A-Z]{6,}$/.test(word) ? (splitIntoWords(word) ?? [word]) : [word]));
  if (!words.length) return violationName;
  const sentence = words.join(' ').toLowerCase();
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/**
 * AM §4: a depersonalised application that was never complete and has no completion date is shown
 * as not completed (its IsComplete may say otherwise once scrubbed); every other one as IsComplete says.
 */
export function isShownComplete(
  detail: Pick<ApplicationDetail, 'Status' | 'LastApplicationStatus' | 'IsComplete' | 'DateCompletedTimestamp'>,
): boolean {
  if (
    detail.Status === 'Depersonalised' &&
    detail.LastApplicationStatus !== 'Complete' &&
    detail.DateCompletedTimestamp <= 0
  ) {
    return false;
  }
  return detail.IsComplete;
}

/** AM §3 System configuration, as far as the detail screen reads it. */
export interface DetailSettings {
  showDocumentListBeforeCompletion: boolean;
  showEVSummaryResult: boolean;
}

export const defaultDetailSettings: DetailSettings = {
  showDocumentListBeforeCompletion: false,
  showEVSummaryResult: false,
};

/** Which cards and controls the detail screen shows (AM §2 card order, §6 claims). */
export interface DetailCards {
  /** Shown only while the application is not (shown as) complete. */
  progress: boolean;
  exceptions: boolean;
  documents: boolean;
  uploadDocuments: boolean;
  /**
   * Issue 32: where the upload is offered. The Documents card holds it; when that card is hidden
   * (before completion, ShowDocumentListBeforeCompletion off) the Outstanding documents card, which
   * asks for the documents, offers it instead.
   */
  uploadIn: 'documents' | 'outstanding' | undefined;
  downloadDocuments: boolean;
  /** ShowEVSummaryResult swaps the Identification requirements card for the Electronic Verification summary. */
  identification: 'requirements' | 'evSummary';
  tax: boolean;
  taxSensitive: boolean;
  vpn: boolean;
  comments: boolean;
  readComments: boolean;
  addComment: boolean;
  viewButton: boolean;
  editButton: boolean;
}

export function detailCards(
  detail: Parameters<typeof isShownComplete>[0],
  claims: Claims,
  settings: DetailSettings,
): DetailCards {
  const complete = isShownComplete(detail);
  const readComments = hasClaim(claims, 'comments.view');
  // Issue 27: nothing is added to an application the write rule closes (a depersonalised one).
  const writable = isWritable(detail.Status);
  const addComment = hasClaim(claims, 'comment.add') && writable;
  const documents = hasClaim(claims, 'document.view') && (complete || settings.showDocumentListBeforeCompletion);
  const uploadDocuments = hasClaim(claims, 'document.upload') && writable;
  return {
    progress: !complete,
    exceptions: hasClaim(claims, 'exceptions.view'),
    documents,
    uploadDocuments,
    uploadIn: !uploadDocuments ? undefined : documents ? 'documents' : 'outstanding',
    downloadDocuments: hasClaim(claims, 'document.download'),
    identification: settings.showEVSummaryResult ? 'evSummary' : 'requirements',
    tax: hasClaim(claims, 'app.taxdetails.viewsummary'),
    taxSensitive: hasClaim(claims, 'app.taxdetails.viewsummary') && hasClaim(claims, 'app.taxdetails.viewsensitive'),
    vpn: hasClaim(claims, 'vpnsummary.view'),
    comments: readComments || addComment,
    readComments,
    addComment,
    viewButton: hasClaim(claims, 'app.view'),
    editButton: hasClaim(claims, 'app.edit'),
  };
}

export interface TaxDisplay {
  applicantName: string;
  /** AM §6 viewsummary: only 'Provided' or 'Not Provided'. */
  summary: 'Provided' | 'Not Provided';
  /** AM §6 viewsensitive: the TFN itself, blurred until revealed; undefined when it may not or cannot show. */
  tfn: string | undefined;
}

/**
 * AM §6 Tax card. Tfn is empty when none was provided; a caller without viewsensitive receives a
 * placeholder instead of the number (server/db/application-detail-store.ts), so it never shows.
 */
export function taxDisplay(tax: TaxInformation, claims: Claims): TaxDisplay {
  const provided = tax.Tfn !== '';
  const sensitive = hasClaim(claims, 'app.taxdetails.viewsensitive');
  return {
    applicantName: tax.ApplicantName,
    summary: provided ? 'Provided' : 'Not Provided',
    tfn: sensitive && tax.Tfn !== '' ? tax.Tfn : undefined,
  };
}

/** AM §9 date formats. */
export const defaultDateFormat = 'DD MMM YYYY HH:mm';
export const approvalDateFormat = 'DD/MM/YYYY HH:mm';
export const activityDateFormat = 'D MMM YYYY HH:mm';

/** Unix seconds in `format`; null, zero or negative (the server's "never") show nothing. */
function formatUnix(timestamp: number | null, format: string): string {
  return timestamp === null || timestamp <= 0 ? '' : dayjs.unix(timestamp).format(format);
}

export const formatDetailDate = (timestamp: number | null): string => formatUnix(timestamp, defaultDateFormat);
export const formatApprovalDate = (timestamp: number | null): string => formatUnix(timestamp, approvalDateFormat);
export const formatActivityDate = (timestamp: number | null): string => formatUnix(timestamp, activityDateFormat);

/** AM §9: Time to Complete is the humanised duration between created and completed; empty while incomplete. */
export function timeToComplete(createdTimestamp: number, completedTimestamp: number): string {
  if (completedTimestamp <= 0 || createdTimestamp <= 0 || completedTimestamp < createdTimestamp) return '';
  return dayjs.duration(completedTimestamp - createdTimestamp, 'seconds').humanize();
}

/** AM §3 optional detail rows, shown only when configured (GET /configuration/rows), in this order. */
export const optionalRowLabels = {
  Mode: 'Mode',
  TimeToComplete: 'Time to Complete',
  Owner: 'Owner',
  PromoCode: 'Promo Code',
  ExternalID: 'External ID',
  AccountNumber: 'Account Number',
  Assignee: 'Assignee',
  Label: 'Label',
  Tag: 'Tag',
  SubBrand: 'Sub-Brand',
  InvestmentAmount: 'Investment Amount',
  Products: 'Products',
} as const;

export type OptionalRowName = keyof typeof optionalRowLabels;

export type DetailRow =
  | { name: string; label: string; kind: 'text'; text: string }
  | ({ name: string; label: string; kind: 'products' } & ProductsDisplay);

const isOptionalRow = (name: string): name is OptionalRowName => name in optionalRowLabels;

/**
 * The Details card: the rows every application shows, then the configured optional rows in the
 * spec's order (unknown names are ignored).
 */
export function detailRows(detail: ApplicationDetail, configuredRows: readonly string[]): DetailRow[] {
  const text = (name: string, label: string, value: string): DetailRow => ({ name, label, kind: 'text', text: value });
  const complete = isShownComplete(detail);
  const rows: DetailRow[] = [
    text('Status', 'Status', detail.Status),
    text('ApplicationType', 'Application Type', detail.ApplicationType),
    text('Channel', 'Channel', detail.Channel),
    text('Created', 'Created', formatDetailDate(detail.DateCreatedTimestamp)),
    text('Completed', 'Completed', complete ? formatDetailDate(detail.DateCompletedTimestamp) : 'Not completed'),
  ];
  const configured = new Set(configuredRows.filter(isOptionalRow));
  const value: Record<Exclude<OptionalRowName, 'Products'>, string> = {
    Mode: detail.ApplicationModeCode,
    TimeToComplete: complete ? timeToComplete(detail.DateCreatedTimestamp, detail.DateCompletedTimestamp) : '',
    Owner: detail.AdviserName,
    PromoCode: detail.PromoCode,
    ExternalID: detail.ExternalID,
    AccountNumber: detail.AccountNumber,
    Assignee: detail.AssigneeDisplayName,
    Label: detail.Label,
    Tag: detail.SystemLabel,
    SubBrand: detail.SubBrandName,
    InvestmentAmount: formatAmount(detail.InvestmentAmount),
  };
  for (const name of Object.keys(optionalRowLabels).filter(isOptionalRow)) {
    if (!configured.has(name)) continue;
    if (name === 'Products') {
      rows.push({ name, label: optionalRowLabels[name], kind: 'products', ...productsDisplay(detail.ProductDisplayNameList) });
    } else {
      rows.push(text(name, optionalRowLabels[name], value[name]));
    }
  }
  return rows;
}

/** AM §5/§8: what is wrong with a comment, or undefined when it can be saved. The server trims too. */
export function commentProblem(comment: string): string | undefined {
  const trimmed = comment.trim();
  if (trimmed === '') return emptyCommentMessage;
  if (trimmed.length > commentMaxLength) return longCommentMessage;
  return undefined;
}

/** The extension of a file name, lower case, without the dot ('' when it has none). */
export function fileExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot <= 0 || dot === fileName.length - 1 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/**
 * AM §5: a document upload accepts only the extensions of System information
 * (AcceptedDocumentUploadExtensions, written with or without the dot, any case).
 */
export function isAcceptedDocument(fileName: string, acceptedExtensions: readonly string[]): boolean {
  const extension = fileExtension(fileName);
  if (extension === '') return false;
  return acceptedExtensions.some((accepted) => accepted.replace(/^\./, '').toLowerCase() === extension);
}

/** The `accept` attribute for the file picker: '.pdf,.jpg,...'. */
export const acceptAttribute = (acceptedExtensions: readonly string[]): string =>
  acceptedExtensions.map((extension) => `.${extension.replace(/^\./, '').toLowerCase()}`).join(',');

/** The progress ring's value: a whole percentage between 0 and 100. */
export const progressPercent = (completionPercentage: number): number =>
  Math.min(100, Math.max(0, Math.round(completionPercentage)));

/** Requirement result (AM §3): 0 means success. */
export const isRequirementMet = (result: number): boolean => result === 0;

/** AM §2: the activity feed reads newest first, whatever order the answer came in (ties keep their order). */
export const newestFirst = <T extends { TimeStamp: number }>(items: readonly T[]): T[] =>
  [...items].sort((a, b) => b.TimeStamp - a.TimeStamp);
