import { eq } from 'drizzle-orm';
import { applicationOwners, applications } from '../../server/db/schema.ts';
import { seedProducts } from '../../server/db/applications-seed.ts';
import { ApplicationListResponseSchema, type ApplicationListRow } from '../../src/schemas/applications.schema.ts';
import type { DataColumnName } from '../../src/domain/list-columns.ts';
import { api, type TestServer } from './harness.ts';

/**
 * An independent oracle for the list: every application read straight from the table, filtered and
 * sorted in JavaScript by the rules of AM §2/§7 (not by the SQL under test).
 */
export type AppRow = typeof applications.$inferSelect;

export async function tenantApplications(server: TestServer, tenantId = 'demo'): Promise<AppRow[]> {
  return server.db.select().from(applications).where(eq(applications.tenantId, tenantId));
}

export async function ownerUserIds(server: TestServer): Promise<Map<string, string>> {
  const owners = await server.db.select().from(applicationOwners);
  return new Map(owners.map((owner) => [owner.id, owner.globalUserId]));
}

export interface OracleFilters {
  status?: string[];
  label?: string[];
  sysLabel?: string[];
  assignee?: string[];
  subBrand?: string[];
  products?: string[];
  mustHaveAllSelectedProducts?: boolean;
  q?: string;
}

const words = (text: string) => text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

export function matches(row: AppRow, filters: OracleFilters): boolean {
  if (row.status === 'Cancelled') return false;
  const inList = (values: string[] | undefined, value: string) => !values || values.length === 0 || values.includes(value);
  if (!inList(filters.status, row.status)) return false;
  if (!inList(filters.label, row.label)) return false;
  if (!inList(filters.sysLabel, row.systemLabel)) return false;
  if (!inList(filters.subBrand, row.subBrandName)) return false;
  if (!inList(filters.assignee, row.assigneeUserId ?? '')) return false;
  const products = filters.products ?? [];
  if (products.length > 0) {
    const codes = products.filter(Boolean);
    const none = codes.length < products.length;
    const empty = row.productCodes.length === 0;
    if (filters.mustHaveAllSelectedProducts) {
      if (!codes.every((code) => row.productCodes.includes(code))) return false;
      if (none && !empty) return false;
    } else if (!(codes.some((code) => row.productCodes.includes(code)) || (none && empty))) return false;
  }
  if (filters.q) {
    const document = words([row.id, row.accountName, row.clientName, row.primaryEmail, row.externalId, row.accountNumber].join(' '));
    if (!words(filters.q).every((word) => document.some((candidate) => candidate.startsWith(word)))) return false;
  }
  return true;
}

type Key = string | number;
const productNames = new Map(seedProducts.map((product) => [product.code, product.name]));
const time = (date: Date | null) => (date ? date.getTime() : -Infinity);

export const sortKey: Record<DataColumnName, (row: AppRow) => Key> = {
  ID: (row) => row.id,
  Email: (row) => row.primaryEmail,
  ClientName: (row) => row.clientName,
  CreatedDate: (row) => time(row.dateCreated),
  Owner: (row) => row.adviserName,
  PercentageComplete: (row) => row.percentageComplete,
  DocsRequired: (row) => row.lowDocStatus,
  Status: (row) => row.status,
  Label: (row) => row.label,
  SystemLabel: (row) => row.systemLabel,
  ExternalId: (row) => row.externalId,
  DateCompleted: (row) => time(row.dateCompleted),
  Assignee: (row) => row.assigneeDisplayName,
  LastDocumentUploadDate: (row) => time(row.lastDocumentUpload),
  DocumentCount: (row) => row.documentCount,
  Language: (row) => row.language,
  PromoCode: (row) => row.promoCode,
  SigningMode: (row) => row.applicationModeCode,
  AccountNumber: (row) => row.accountNumber,
  ApplicationType: (row) => row.applicationType,
  UserUploadCount: (row) => row.userUploadCount,
  SubBrandName: (row) => row.subBrandName,
  // What the cell reads: the catalogue names of the codes, in order (not the stored sort column).
  Products: (row) => row.productCodes.map((code) => productNames.get(code) ?? code).join(', '),
  AccountName: (row) => row.accountName,
  InvestmentAmount: (row) => Number(row.investmentAmount),
};

/** PostgreSQL's order for these types under the C collation: code-unit order. */
export function compareKeys(a: Key, b: Key): number {
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  const left = String(a);
  const right = String(b);
  return left === right ? 0 : left < right ? -1 : 1;
}

export function expectedOrder(rows: readonly AppRow[], column: DataColumnName, direction: 'asc' | 'desc'): number[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => sign * (compareKeys(sortKey[column](a), sortKey[column](b)) || a.id - b.id))
    .map((row) => row.id);
}

export function listUrl(path: string, params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    search.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return `${path}?${search}`;
}

export async function listPage(server: TestServer, token: string, path: string, params: Record<string, unknown>, host?: string) {
  const response = await api(server, 'GET', listUrl(path, params), { token, host });
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  // The route serialises without re-checking (see applications.routes.ts): every page the tests read is checked here.
  return ApplicationListResponseSchema.parse(response.json());
}

/** Every row of a list, page by page (200 a page), checking TotalRows and MaxPage on the way. */
export async function listAll(server: TestServer, token: string, path: string, params: Record<string, unknown>, host?: string) {
  const rows: ApplicationListRow[] = [];
  const first = await listPage(server, token, path, { ...params, pageNo: 1, rowsPerPage: 200 }, host);
  rows.push(...first.Applications);
  for (let pageNo = 2; pageNo <= first.MaxPage; pageNo++) {
    const page = await listPage(server, token, path, { ...params, pageNo, rowsPerPage: 200 }, host);
    if (page.TotalRows !== first.TotalRows) throw new Error('TotalRows changed between pages');
    rows.push(...page.Applications);
  }
  return { rows, totalRows: first.TotalRows, maxPage: first.MaxPage };
}
