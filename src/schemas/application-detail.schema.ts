import * as z from 'zod/mini';
import { plainText } from './visible-text.ts';
import { NameValueSchema } from './applications.schema.ts';

/**
 * The application detail screen's API contract (AM §3 "Application (detail)" and its related
 * entities, AM §7 calls). Wire names exactly as the spec spells them. Timestamps are unix seconds;
 * DateCompletedTimestamp is negative while the application is not completed.
 */

/** AM §3 Applicant approval. UpdateDate is unix seconds (shown 'DD/MM/YYYY HH:mm'); null before any decision. */
export const ApplicantApprovalSchema = z.object({
  IndividualId: z.string(),
  ApplicantName: z.string(),
  /** Approved, Declined, otherwise pending (any other text is shown as pending). */
  Status: z.string(),
  IsMFALocked: z.boolean(),
  UpdateDate: z.nullable(z.int()),
  SendEmail: z.boolean(),
});
export type ApplicantApproval = z.infer<typeof ApplicantApprovalSchema>;

/** AM §3 Requirement: Result 0 means success; ActionRequired is HTML (sanitised before display). */
export const RequirementSchema = z.object({
  EntityGuid: z.string(),
  Name: z.string(),
  Result: z.int(),
  ResultText: z.string(),
  ActionRequired: z.string(),
  IsEligibleForReverification: z.boolean(),
  IsEligibleForNewVerification: z.boolean(),
  IsEligibleForSanctionsVerification: z.boolean(),
});
export type Requirement = z.infer<typeof RequirementSchema>;

/** AM §3 Document: ArtifactFriendlyName is 'User upload' for uploads. */
export const DocumentSchema = z.object({
  ArtifactID: z.string(),
  ArtifactFriendlyName: z.string(),
  OriginalFileName: z.string(),
  UploadedTimestamp: z.int(),
  LabDocsId: z.string(),
});
export type ApplicationDocument = z.infer<typeof DocumentSchema>;

/** AM §3 Additional document (the Outstanding documents card); ActionRequired is HTML. */
export const AdditionalDocumentSchema = z.object({ Name: z.string(), ActionRequired: z.string() });
export type AdditionalDocument = z.infer<typeof AdditionalDocumentSchema>;

/** AM §3 Exception (business-rule violation). */
export const ExceptionSchema = z.object({ ViolationName: z.string(), ViolationDateTimeStamp: z.int() });
export type ApplicationException = z.infer<typeof ExceptionSchema>;

/** AM §3 Tax: Tfn is empty when not provided; only callers with app.taxdetails.viewsensitive receive it. */
export const TaxInformationSchema = z.object({ ApplicantName: z.string(), Tfn: z.string() });
export type TaxInformation = z.infer<typeof TaxInformationSchema>;

export const ReportItemSchema = z.object({ ReportName: z.string(), DisplayName: z.string() });
export const ApiItemSchema = z.object({ ApiName: z.string(), DisplayName: z.string() });

/** GET /api/application/get/{id}: AM §3 Application (detail). */
export const ApplicationDetailSchema = z.object({
  ApplicationGuid: z.string(),
  ApplicationId: z.int(),
  ApplicationID: z.int(),
  AccountName: z.string(),
  Status: z.string(),
  LastApplicationStatus: z.string(),
  IsComplete: z.boolean(),
  CompletionPercentage: z.number(),
  /** The last form section an incomplete application reached (issue 30); null when none is recorded. */
  LastSection: z.optional(z.nullable(z.string())),
  DateCreatedTimestamp: z.int(),
  DateCompletedTimestamp: z.int(),
  /** 'Online' or 'Print & Sign'. */
  ApplicationModeCode: z.string(),
  ApplicationType: z.string(),
  Channel: z.string(),
  SubBrandName: z.string(),
  PromoCode: z.string(),
  ExternalID: z.string(),
  AccountNumber: z.string(),
  InvestmentAmount: z.number(),
  Label: z.string(),
  SystemLabel: z.string(),
  AdviserName: z.string(),
  AssigneeDisplayName: z.string(),
  AssigneeUserId: z.nullable(z.string()),
  PrimaryApplicantName: z.string(),
  PrimaryApplicantPhone: z.string(),
  Email: z.string(),
  ProductDisplayNameList: z.array(z.string()),
  ProductDictionary: z.array(NameValueSchema),
  /** Empty unless the caller holds exceptions.view. */
  BusinessRuleViolations: z.array(ExceptionSchema),
  ApplicantApprovals: z.array(ApplicantApprovalSchema),
  Requirements: z.array(RequirementSchema),
  OutstandingDocuments: z.array(AdditionalDocumentSchema),
  /** Empty unless the caller holds app.taxdetails.viewsummary; Tfn blanked without .viewsensitive. */
  ApplicationTaxInformations: z.array(TaxInformationSchema),
  ReportItems: z.array(ReportItemSchema),
  ApiItems: z.array(ApiItemSchema),
  /** Empty unless the caller holds document.view. */
  Documents: z.array(DocumentSchema),
  InstanceName: z.string(),
});
export type ApplicationDetail = z.infer<typeof ApplicationDetailSchema>;

/** AM §3 VPN summary item; EventDateTime is unix seconds. */
export const ApplicationIpSchema = z.object({
  ApplicantName: z.string(),
  Ip: z.string(),
  IspName: z.string(),
  IsVpn: z.boolean(),
  EventDateTime: z.int(),
});
export type ApplicationIp = z.infer<typeof ApplicationIpSchema>;

/** GET /api/application/get/ips/{id}. */
export const ApplicationIpsResponseSchema = z.object({ ApplicationIps: z.array(ApplicationIpSchema) });
export type ApplicationIpsResponse = z.infer<typeof ApplicationIpsResponseSchema>;

/** AM §3 Activity item: TimeStamp is unix seconds. */
export const ActivityItemSchema = z.object({ Activity: z.string(), TimeStamp: z.int() });
export type ActivityItem = z.infer<typeof ActivityItemSchema>;

/** GET /api/application/activityfeed/{id}: newest first. */
export const ActivityFeedResponseSchema = z.object({ ActivityFeedItems: z.array(ActivityItemSchema) });
export type ActivityFeedResponse = z.infer<typeof ActivityFeedResponseSchema>;

/** POST /api/application/reload/{id}: the application is read again from its source. */
export const ReloadResponseSchema = z.object({ Success: z.boolean() });
export type ReloadResponse = z.infer<typeof ReloadResponseSchema>;

/** AM §3 Comment; CommentTimestamp is unix seconds. */
export const CommentSchema = z.object({
  CommentId: z.int(),
  UserDisplayName: z.string(),
  CommentTimestamp: z.int(),
  Comment: z.string(),
});
export type ApplicationComment = z.infer<typeof CommentSchema>;

/** GET /api/comment/{id}: newest first. */
export const CommentsResponseSchema = z.object({ Comments: z.array(CommentSchema) });
export type CommentsResponse = z.infer<typeof CommentsResponseSchema>;

/** AM §5 and §8 comment texts, shared by the portal's validation and the server's 400s. */
export const commentMaxLength = 500;
export const emptyCommentMessage = 'Empty comment cannot be saved.';
export const longCommentMessage = 'Comment cannot be longer than 500 characters.';

/**
 * POST /api/comment/{id}: bidi controls are stripped here; the server trims and refuses a comment
 * with nothing visible and one over 500 characters with the spec's texts.
 */
export const AddCommentRequestSchema = z.object({ Comment: plainText() });
export type AddCommentRequest = z.infer<typeof AddCommentRequestSchema>;

/** AM §3 upload response: one entry per file sent, in order. ErrorNo 0 when every file was stored. */
export const UploadedDocumentSchema = z.object({
  Success: z.boolean(),
  PublicId: z.string(),
  FileName: z.string(),
  UploadedTimestamp: z.int(),
  /** Why this file was refused (empty on success), e.g. 'Invalid file type'. */
  Message: z.string(),
});
export type UploadedDocument = z.infer<typeof UploadedDocumentSchema>;

export const UploadDocumentsResponseSchema = z.object({
  UploadedDocuments: z.array(UploadedDocumentSchema),
  ErrorNo: z.int(),
  Message: z.string(),
});
export type UploadDocumentsResponse = z.infer<typeof UploadDocumentsResponseSchema>;

/** GET /api/document?ApplicationGuid=...&LabDocsId=...: one document, as an attachment. */
export const DocumentQuerySchema = z.object({ ApplicationGuid: z.string(), LabDocsId: z.string() });
export type DocumentQuery = z.infer<typeof DocumentQuerySchema>;

/** AM §8 upload refusal text. */
export const invalidFileTypeMessage = 'Invalid file type';
/** A file of an accepted type with nothing in it (issue 32: not 'Invalid file type'). */
export const emptyFileMessage = 'The file is empty.';
