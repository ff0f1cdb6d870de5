/** AM §3 List column names, in the spec's order. */
export const listColumnNames = [
  'ID',
  'Email',
  'ClientName',
  'CreatedDate',
  'Owner',
  'PercentageComplete',
  'DocsRequired',
  'Status',
  'Label',
  'SystemLabel',
  'Actions',
  'ExternalId',
  'DateCompleted',
  'Assignee',
  'LastDocumentUploadDate',
  'DocumentCount',
  'Language',
  'PromoCode',
  'SigningMode',
  'AccountNumber',
  'ApplicationType',
  'UserUploadCount',
  'SubBrandName',
  'Products',
  'AccountName',
  'InvestmentAmount',
] as const;
export type ListColumnName = (typeof listColumnNames)[number];

/** AM §2 Admin configuration: these four are always visible and cannot be toggled. */
export const fixedListColumns: readonly ListColumnName[] = ['ID', 'Email', 'AccountName', 'Status'];

/** Actions holds the row menu: it shows no data, so it neither sorts nor exports. */
export type DataColumnName = Exclude<ListColumnName, 'Actions'>;

/**
 * The list row field (AM §3 Application list row) each data column shows. Sorting by a column sorts
 * by this field, and the CSV export writes this field: one map, so the two can never disagree.
 */
export const columnField = {
  ID: 'ApplicationID',
  Email: 'PrimaryEmail',
  ClientName: 'ClientName',
  CreatedDate: 'DateCreatedTimestamp',
  Owner: 'AdviserName',
  PercentageComplete: 'PercentageComplete',
  DocsRequired: 'LowDocStatus',
  Status: 'Status',
  Label: 'Label',
  SystemLabel: 'SystemLabel',
  ExternalId: 'ExternalID',
  DateCompleted: 'DateCompletedTimestamp',
  Assignee: 'AssigneeDisplayName',
  LastDocumentUploadDate: 'LastDocumentUploadTimestamp',
  DocumentCount: 'DocumentCount',
  Language: 'Language',
  PromoCode: 'PromoCode',
  SigningMode: 'ApplicationModeCode',
  AccountNumber: 'AccountNumber',
  ApplicationType: 'ApplicationType',
  UserUploadCount: 'UserUploadCount',
  SubBrandName: 'SubBrandName',
  Products: 'ProductDisplayNameList',
  AccountName: 'AccountName',
  InvestmentAmount: 'InvestmentAmount',
} as const satisfies Record<DataColumnName, string>;
export type SortField = (typeof columnField)[DataColumnName];

export const sortableColumns: readonly DataColumnName[] = listColumnNames.filter(
  (name): name is DataColumnName => name !== 'Actions',
);

export const isSortableColumn = (name: string): name is DataColumnName => Object.hasOwn(columnField, name);
export const isListColumn = (name: string): name is ListColumnName => listColumnNames.some((column) => column === name);

/** AM §4 and §9: ID descending unless the address says otherwise. */
export const defaultSortBy: DataColumnName = 'ID';
export const defaultSortType = 'desc';

interface ConfigurableItem {
  description: string;
  /** Visible until the tenant's administrator says otherwise. */
  defaultViewable: boolean;
}

/** Descriptions shown on the admin page, and which columns a tenant sees before configuring any. */
export const listColumnCatalogue: Record<ListColumnName, ConfigurableItem> = {
  ID: { description: 'Application ID (always shown)', defaultViewable: true },
  Email: { description: 'Primary applicant e-mail (always shown)', defaultViewable: true },
  ClientName: { description: 'Primary applicant name', defaultViewable: true },
  CreatedDate: { description: 'Date the application was created', defaultViewable: true },
  Owner: { description: 'Adviser who owns the application', defaultViewable: true },
  PercentageComplete: { description: 'Progress towards completion', defaultViewable: true },
  DocsRequired: { description: 'Whether supporting documents are required', defaultViewable: false },
  Status: { description: 'Application status (always shown)', defaultViewable: true },
  Label: { description: 'Label set by staff', defaultViewable: true },
  SystemLabel: { description: 'Tag set by the system', defaultViewable: true },
  Actions: { description: 'Row menu: open in a new tab, cancel', defaultViewable: true },
  ExternalId: { description: 'Identifier in an external system', defaultViewable: false },
  DateCompleted: { description: 'Date the application was completed', defaultViewable: false },
  Assignee: { description: 'Staff member the application is assigned to', defaultViewable: true },
  LastDocumentUploadDate: { description: 'Date of the latest document upload', defaultViewable: false },
  DocumentCount: { description: 'Number of documents', defaultViewable: false },
  Language: { description: 'Language of the application', defaultViewable: false },
  PromoCode: { description: 'Promotional code used', defaultViewable: false },
  SigningMode: { description: 'Online or Print & Sign', defaultViewable: false },
  AccountNumber: { description: 'Account number once opened', defaultViewable: false },
  ApplicationType: { description: 'Individual, joint, company, trust...', defaultViewable: false },
  UserUploadCount: { description: 'Documents uploaded by staff', defaultViewable: false },
  SubBrandName: { description: 'Sub-brand the application belongs to', defaultViewable: false },
  Products: { description: 'Products applied for', defaultViewable: false },
  AccountName: { description: 'Account name (always shown)', defaultViewable: true },
  InvestmentAmount: { description: 'Initial investment amount', defaultViewable: false },
};

/** AM §3 Optional detail rows (shown only if configured). */
export const detailRowNames = [
  'Mode',
  'TimeToComplete',
  'Owner',
  'PromoCode',
  'ExternalID',
  'AccountNumber',
  'Assignee',
  'Label',
  'Tag',
  'SubBrand',
  'InvestmentAmount',
  'Products',
] as const;
export type DetailRowName = (typeof detailRowNames)[number];
export const isDetailRow = (name: string): name is DetailRowName => detailRowNames.some((row) => row === name);

export const detailRowCatalogue: Record<DetailRowName, ConfigurableItem> = {
  Mode: { description: 'Signing mode: Online or Print & Sign', defaultViewable: true },
  TimeToComplete: { description: 'Time between creation and completion', defaultViewable: false },
  Owner: { description: 'Adviser who owns the application', defaultViewable: true },
  PromoCode: { description: 'Promotional code used', defaultViewable: false },
  ExternalID: { description: 'Identifier in an external system', defaultViewable: false },
  AccountNumber: { description: 'Account number once opened', defaultViewable: false },
  Assignee: { description: 'Staff member the application is assigned to', defaultViewable: true },
  Label: { description: 'Label set by staff', defaultViewable: true },
  Tag: { description: 'Tag set by the system', defaultViewable: true },
  SubBrand: { description: 'Sub-brand the application belongs to', defaultViewable: true },
  InvestmentAmount: { description: 'Initial investment amount', defaultViewable: false },
  Products: { description: 'Products applied for', defaultViewable: true },
};

/**
 * Resolves what a tenant sees from its stored departures from the defaults; the fixed columns stay
 * visible whatever is stored.
 */
export function visibleListColumns(overrides: ReadonlyMap<string, boolean>): ListColumnName[] {
  return listColumnNames.filter(
    (name) => fixedListColumns.includes(name) || (overrides.get(name) ?? listColumnCatalogue[name].defaultViewable),
  );
}

export function visibleDetailRows(overrides: ReadonlyMap<string, boolean>): DetailRowName[] {
  return detailRowNames.filter((name) => overrides.get(name) ?? detailRowCatalogue[name].defaultViewable);
}

/** AM §4: the code Pin maps to Online, any other code to 'Print & Sign'. */
export const signingModeLabel = (code: string): string => (code === 'Pin' ? 'Online' : 'Print & Sign');
