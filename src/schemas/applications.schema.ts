import * as z from 'zod/mini';
import { sortableColumns, type DataColumnName } from '../domain/list-columns.ts';

/** AM §3 "Label and filter option": every lookup list and the product dictionary use it. */
export const NameValueSchema = z.object({ Name: z.string(), Value: z.string() });
export type NameValue = z.infer<typeof NameValueSchema>;

/** The columns the list sorts by: every AM §3 list column except Actions (a menu, not data). */
export { sortableColumns };
export type SortColumn = DataColumnName;

/**
 * GET /api/application/list, /list/all and /export/{my|all} query string (AM §2): every parameter
 * travels as text; the JSON-array filters are parsed and checked by `parseListQuery`
 * (src/domain/list-request.ts), which names the parameter at fault.
 */
export const ApplicationListQuerySchema = z.object({
  pageNo: z.optional(z.string()),
  rowsPerPage: z.optional(z.string()),
  status: z.optional(z.string()),
  label: z.optional(z.string()),
  sysLabel: z.optional(z.string()),
  assignee: z.optional(z.string()),
  subBrand: z.optional(z.string()),
  products: z.optional(z.string()),
  mustHaveAllSelectedProducts: z.optional(z.string()),
  /** The Reports page's drill-downs (issue 30): a JSON array, days YYYY-MM-DD, true/false. */
  applicationType: z.optional(z.string()),
  createdFrom: z.optional(z.string()),
  createdTo: z.optional(z.string()),
  completedFrom: z.optional(z.string()),
  completedTo: z.optional(z.string()),
  completed: z.optional(z.string()),
  q: z.optional(z.string()),
  sortBy: z.optional(z.string()),
  sortType: z.optional(z.string()),
  /** AM §2 view (list or email): a portal concern, accepted and ignored. */
  view: z.optional(z.string()),
});
export type ApplicationListQuery = z.infer<typeof ApplicationListQuerySchema>;

export const ProductDictionaryItemSchema = NameValueSchema;
export type ProductDictionaryItem = NameValue;

/** AM §3 Application (list row). Timestamps are unix seconds; DateCompletedTimestamp is -1 when not completed. */
export const ApplicationListRowSchema = z.object({
  ApplicationID: z.int(),
  ApplicationGuid: z.string(),
  AccountName: z.string(),
  PrimaryEmail: z.string(),
  SubBrandName: z.string(),
  ProductDisplayNameList: z.array(z.string()),
  ProductDictionary: z.array(ProductDictionaryItemSchema),
  ExternalID: z.string(),
  AccountNumber: z.string(),
  DateCreatedTimestamp: z.int(),
  DateCompletedTimestamp: z.int(),
  LastDocumentUploadTimestamp: z.nullable(z.int()),
  ApplicationType: z.string(),
  ShortApplicationType: z.string(),
  PromoCode: z.string(),
  InvestmentAmount: z.number(),
  Language: z.string(),
  /** Displayed as Owner. */
  AdviserName: z.string(),
  ClientName: z.string(),
  LowDocStatus: z.string(),
  DocumentCount: z.int(),
  UserUploadCount: z.int(),
  /** Signing mode: 'Pin' (Online) or 'PrintandSign'. */
  ApplicationModeCode: z.string(),
  /** Free text: unknown statuses render as plain text. */
  Status: z.string(),
  PercentageComplete: z.int(),
  AssigneeDisplayName: z.string(),
  Label: z.string(),
  /** Displayed as Tag. */
  SystemLabel: z.string(),
  AssigneeUserId: z.nullable(z.string()),
});
export type ApplicationListRow = z.infer<typeof ApplicationListRowSchema>;

/** AM §3 List response. MaxPage is 0 when nothing matches; a page past MaxPage is empty. */
export const ApplicationListResponseSchema = z.object({
  Applications: z.array(ApplicationListRowSchema),
  MaxPage: z.int(),
  TotalRows: z.int(),
});
export type ApplicationListResponse = z.infer<typeof ApplicationListResponseSchema>;


/** POST /api/application/cancel (AM §7). */
export const CancelApplicationsRequestSchema = z.object({
  ApplicationCancellations: z.array(z.object({ ApplicationGuid: z.string() })).check(
    z.minLength(1, 'ApplicationCancellations: at least one application'),
    z.maxLength(500, 'ApplicationCancellations: at most 500 applications'),
  ),
});
export type CancelApplicationsRequest = z.infer<typeof CancelApplicationsRequestSchema>;

export const CancelResultSchema = z.object({ ApplicationGuid: z.string(), Success: z.boolean() });
export type CancelResult = z.infer<typeof CancelResultSchema>;

/** Each application is cancelled on its own: one failing leaves the others cancelled. */
export const CancelApplicationsResponseSchema = z.object({ Results: z.array(CancelResultSchema) });
export type CancelApplicationsResponse = z.infer<typeof CancelApplicationsResponseSchema>;

/** POST /api/application/new: Url opens the provider's application form for the new application. */
export const NewApplicationResponseSchema = z.object({ Result: z.string(), Message: z.string(), Url: z.string() });
export type NewApplicationResponse = z.infer<typeof NewApplicationResponseSchema>;

/**
 * POST /api/application/export/{my|all}/link with the list's query: a download link for export.csv
 * with those filters and sort, for the browser to fetch itself (no bearer token needed: the link is
 * the credential). It works once, for a minute, on the tenant's own host.
 */
export const ExportLinkResponseSchema = z.object({ Url: z.string(), ExpiresInSeconds: z.number() });
export type ExportLinkResponse = z.infer<typeof ExportLinkResponseSchema>;

/** POST /api/application/newonbehalf: the chosen owner (AM §3 Owner PublicId and GlobalUserId). */
export const NewOnBehalfRequestSchema = z.object({
  GlobalUserId: z.uuid('GlobalUserId: must be the owner GlobalUserId'),
  OwnerId: z.uuid('OwnerId: must be the owner PublicId'),
});
export type NewOnBehalfRequest = z.infer<typeof NewOnBehalfRequestSchema>;

export const NewOnBehalfResponseSchema = z.object({ Result: z.string(), Url: z.string() });
export type NewOnBehalfResponse = z.infer<typeof NewOnBehalfResponseSchema>;

/** The Result value of a new application that was created. */
export const newApplicationSuccess = 'Success';
