import * as z from 'zod';

/** AM §3 "List column names": the tenant configures which are visible. */
export const listColumnNames = [
  'ID', 'Email', 'ClientName', 'CreatedDate', 'Owner', 'PercentageComplete', 'DocsRequired', 'Status', 'Label',
  'SystemLabel', 'Actions', 'ExternalId', 'DateCompleted', 'Assignee', 'LastDocumentUploadDate', 'DocumentCount',
  'Language', 'PromoCode', 'SigningMode', 'AccountNumber', 'ApplicationType', 'UserUploadCount', 'SubBrandName',
  'Products', 'AccountName', 'InvestmentAmount',
] as const;
export const ListColumnNameSchema = z.enum(listColumnNames);
export type ListColumnName = z.infer<typeof ListColumnNameSchema>;

/** Columns that hold data and so can be sorted on (every list column but the row menu). */
export const sortableColumns = listColumnNames.filter((name) => name !== 'Actions');
export const SortColumnSchema = z.enum(listColumnNames).exclude(['Actions']);
export type SortColumn = z.infer<typeof SortColumnSchema>;

export const NameValueSchema = z.object({ Name: z.string(), Value: z.string() });
export type NameValue = z.infer<typeof NameValueSchema>;

/** AM §3 "Application (list row)", wire names as the spec spells them. Timestamps are unix seconds. */
export const ApplicationListRowSchema = z.object({
  ApplicationID: z.number().int(),
  ApplicationGuid: z.string(),
  AccountName: z.string(),
  PrimaryEmail: z.string(),
  SubBrandName: z.string().nullable(),
  ProductDisplayNameList: z.array(z.string()),
  ProductDictionary: z.array(NameValueSchema),
  ExternalID: z.string().nullable(),
  AccountNumber: z.string().nullable(),
  DateCreatedTimestamp: z.number(),
  /** Negative or null: not completed. */
  DateCompletedTimestamp: z.number().nullable(),
  LastDocumentUploadTimestamp: z.number().nullable(),
  ApplicationType: z.string(),
  ShortApplicationType: z.string(),
  PromoCode: z.string().nullable(),
  InvestmentAmount: z.number().nullable(),
  Language: z.string(),
  /** Displayed as Owner. */
  AdviserName: z.string(),
  ClientName: z.string(),
  LowDocStatus: z.string().nullable(),
  DocumentCount: z.number().int(),
  UserUploadCount: z.number().int(),
  /** Signing mode: Pin (Online) or PrintandSign. */
  ApplicationModeCode: z.string(),
  Status: z.string(),
  PercentageComplete: z.number(),
  AssigneeDisplayName: z.string().nullable(),
  Label: z.string().nullable(),
  /** Displayed as Tag. */
  SystemLabel: z.string().nullable(),
  AssigneeUserId: z.string().nullable(),
});
export type ApplicationListRow = z.infer<typeof ApplicationListRowSchema>;

export const ApplicationListResponseSchema = z.object({
  Applications: z.array(ApplicationListRowSchema),
  MaxPage: z.number().int(),
  TotalRows: z.number().int(),
});
export type ApplicationListResponse = z.infer<typeof ApplicationListResponseSchema>;

export const CancelRequestSchema = z.object({
  ApplicationCancellations: z.array(z.object({ ApplicationGuid: z.string().min(1) })).min(1).max(500),
});
export type CancelRequest = z.infer<typeof CancelRequestSchema>;

export const CancelResponseSchema = z.object({
  Results: z.array(z.object({ ApplicationGuid: z.string(), Success: z.boolean() })),
});
export type CancelResponse = z.infer<typeof CancelResponseSchema>;

export const NewApplicationResponseSchema = z.object({ Result: z.string(), Message: z.string(), Url: z.string() });
export type NewApplicationResponse = z.infer<typeof NewApplicationResponseSchema>;

export const NewOnBehalfRequestSchema = z.object({ GlobalUserId: z.string().min(1), OwnerId: z.string().min(1) });
export type NewOnBehalfRequest = z.infer<typeof NewOnBehalfRequestSchema>;

export const NewOnBehalfResponseSchema = z.object({ Result: z.string(), Url: z.string() });
export type NewOnBehalfResponse = z.infer<typeof NewOnBehalfResponseSchema>;
