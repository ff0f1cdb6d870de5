import { and, desc, eq, sql } from 'drizzle-orm';
import { emptyFilters } from '../../src/domain/list-request.ts';
import type { Database } from './client.ts';
import { listWhere, Params, type ListScope } from './applications-list.ts';
import { visibleScopes, type Actor } from './applications-store.ts';
import { applicationActivity, applicationComments, applicationDocuments, applications } from './schema.ts';
import { sqlRunner } from './sql-runner.ts';
import { ReadBatchesByKind } from './read-batches.ts';

/**
 * Reads of the application detail screen (AM §2, §3), each limited to what the caller may see: an
 * application outside every list the caller may open is the same "not found" as one that does not
 * exist, and so is another tenant's. A cancelled application is in no list (AM §4 "Cancel removes
 * the application from listings") but stays readable at its own address for whoever could see it
 * before (issue 32: who cancelled it and when); the write rule refuses every write to it (409).
 */

/** What the caller's claims let the detail carry (AM §6). */
export interface DetailClaims {
  exceptions: boolean;
  documents: boolean;
  taxSummary: boolean;
  taxSensitive: boolean;
}

export const detailClaimsOf = (claims: readonly string[]): DetailClaims => ({
  exceptions: claims.includes('exceptions.view'),
  documents: claims.includes('document.view'),
  taxSummary: claims.includes('app.taxdetails.viewsummary'),
  taxSensitive: claims.includes('app.taxdetails.viewsensitive'),
});

/**
 * What a caller with app.taxdetails.viewsummary but not .viewsensitive receives as the Tfn of an
 * applicant who provided one: enough for 'Provided' / 'Not Provided' (empty), never a digit of it.
 */
export const tfnProvidedPlaceholder = 'Provided';

/** A prepared statement's name (lower-case words only) for each kind of visibility condition. */
const scopeName = (scope: ListScope) =>
  scope.kind === 'restricted' ? `restricted_${scope.byLocation ? 'l' : 'x'}${scope.byRestrictionGroup ? 'g' : 'x'}` : scope.kind;

/**
 * `id = $1` and visible to the actor, as SQL over `applications a`-less columns, with its statement
 * name suffix. Cancelled ones included: one application is opened by its address, not from a list.
 */
export function visibleById(params: Params, actor: Actor) {
  const scopes = visibleScopes(actor);
  const condition =
    scopes.length === 0 ? 'false' : scopes.map((scope) => `(${listWhere(params, actor.tenantId, scope, emptyFilters, false)})`).join(' or ');
  const name = scopes.length === 0 ? 'none' : scopes.map(scopeName).join('_');
  return { condition: `(${condition})`, name };
}

const epoch = (column: string) => `floor(date_part('epoch', ${column}))::bigint`;
const jsonArray = (select: string) => `coalesce((${select}), '[]'::json)`;

/** Detail reads waiting to be batched, per database and statement (its name and every parameter but the ids). */
const detailReads = new ReadBatchesByKind<number, string>();

/**
 * The whole detail as one JSON text, undefined when the application is not visible to the actor.
 * The database writes it in one statement of index lookups (each related table by application
 * id), which spares decoding rows into objects only to encode them again, and reads that arrive
 * together for the same statement share it (read-batches.ts).
 */
export function applicationDetailJson(db: Database, actor: Actor, applicationId: number): Promise<string | undefined> {
  const statement = detailStatement(actor);
  const read = detailReads.reader(db, `${statement.name}:${JSON.stringify(statement.values)}`, async (ids) => {
    const rows = await sqlRunner(db).preparedTextRows(statement.name, statement.text, [`{${ids.join(',')}}`, ...statement.values]);
    return new Map(rows.flatMap(([id, json]) => (id && json ? [[Number(id), json] as const] : [])));
  });
  return read(applicationId);
}

/** The detail statement for the actor: `$1` is the array of application ids, `values` the rest of its parameters. */
function detailStatement(actor: Actor) {
  const params = new Params();
  const ids = params.add('ids');
  const flag = (value: boolean) => `${params.add(value ? 'true' : 'false')}::boolean`;
  const claims = detailClaimsOf(actor.claims);
  const exceptions = flag(claims.exceptions);
  const documents = flag(claims.documents);
  const taxSummary = flag(claims.taxSummary);
  const taxSensitive = flag(claims.taxSensitive);
  const placeholder = params.add(tfnProvidedPlaceholder);
  const visible = visibleById(params, actor);
  const complete = 'date_completed is not null';
  const text = `
select a.id::text, json_build_object(
  'ApplicationGuid', a.guid::text,
  'ApplicationId', a.id,
  'ApplicationID', a.id,
  'AccountName', a.account_name,
  'Status', a.status,
  'LastApplicationStatus', a.previous_status,
  'IsComplete', a.${complete},
  'CompletionPercentage', a.percentage_complete,
  'LastSection', a.last_section,
  'DateCreatedTimestamp', ${epoch('a.date_created')},
  'DateCompletedTimestamp', coalesce(${epoch('a.date_completed')}, -1),
  'ApplicationModeCode', case when a.application_mode_code = 'Pin' then 'Online' else 'Print & Sign' end,
  'ApplicationType', a.application_type,
  'Channel', case when a.system_label in ('API', 'Bulk upload') then a.system_label else 'Adviser portal' end,
  'SubBrandName', a.sub_brand_name,
  'PromoCode', a.promo_code,
  'ExternalID', a.external_id,
  'AccountNumber', a.account_number,
  'InvestmentAmount', a.investment_amount::float8,
  'Label', a.label,
  'SystemLabel', a.system_label,
  'AdviserName', a.adviser_name,
  'AssigneeDisplayName', a.assignee_display_name,
  'AssigneeUserId', a.assignee_user_id::text,
  'PrimaryApplicantName', coalesce(p.name, a.client_name),
  'PrimaryApplicantPhone', coalesce(p.phone, ''),
  'Email', a.primary_email,
  'ProductDisplayNameList', ${jsonArray(`select json_agg(coalesce(pr.name, c.code) order by c.n) from unnest(a.product_codes) with ordinality c(code, n) left join products pr on pr.tenant_id = a.tenant_id and pr.code = c.code`)},
  'ProductDictionary', ${jsonArray(`select json_agg(json_build_object('Name', coalesce(pr.name, c.code), 'Value', c.code) order by c.n) from unnest(a.product_codes) with ordinality c(code, n) left join products pr on pr.tenant_id = a.tenant_id and pr.code = c.code`)},
  'BusinessRuleViolations', case when ${exceptions} then ${jsonArray(`select json_agg(json_build_object('ViolationName', v.name, 'ViolationDateTimeStamp', ${epoch('v.occurred_at')}) order by v.occurred_at, v.id) from application_violations v where v.application_id = a.id`)} else '[]'::json end,
  'ApplicantApprovals', ${jsonArray(`select json_agg(json_build_object('IndividualId', i.id::text, 'ApplicantName', trim(i.first_name || ' ' || i.last_name), 'Status', i.approval_status, 'IsMFALocked', i.is_mfa_locked, 'UpdateDate', ${epoch('i.approval_updated_at')}, 'SendEmail', i.send_email) order by i.position) from application_applicants i where i.application_id = a.id`)},
  'Requirements', ${jsonArray(`select json_agg(json_build_object('EntityGuid', r.entity_guid::text, 'Name', r.name, 'Result', r.result, 'ResultText', r.result_text, 'ActionRequired', r.action_required, 'IsEligibleForReverification', r.eligible_for_reverification, 'IsEligibleForNewVerification', r.eligible_for_new_verification, 'IsEligibleForSanctionsVerification', r.eligible_for_sanctions_verification) order by r.id) from application_requirements r where r.application_id = a.id`)},
  'OutstandingDocuments', ${jsonArray(`select json_agg(json_build_object('Name', o.name, 'ActionRequired', o.action_required) order by o.id) from application_outstanding_documents o where o.application_id = a.id`)},
  'ApplicationTaxInformations', case when ${taxSummary} then ${jsonArray(`select json_agg(json_build_object('ApplicantName', trim(i.first_name || ' ' || i.last_name), 'Tfn', case when i.tfn = '' then '' when ${taxSensitive} then i.tfn else ${placeholder} end) order by i.position) from application_applicants i where i.application_id = a.id`)} else '[]'::json end,
  'ReportItems', case when a.${complete} then json_build_array(json_build_object('ReportName', 'FinalReport', 'DisplayName', 'Final Report')) else json_build_array(json_build_object('ReportName', 'DraftReport', 'DisplayName', 'Draft Report')) end,
  'ApiItems', case when a.${complete} and a.status not in ('Depersonalised', 'Cancelled') then json_build_array(json_build_object('ApiName', 'CoreBanking', 'DisplayName', 'Send to core banking')) else '[]'::json end,
  'Documents', case when ${documents} then ${jsonArray(`select json_agg(json_build_object('ArtifactID', d.id::text, 'ArtifactFriendlyName', d.friendly_name, 'OriginalFileName', d.original_file_name, 'UploadedTimestamp', ${epoch('d.uploaded_at')}, 'LabDocsId', d.public_id::text) order by d.uploaded_at desc, d.id desc) from application_documents d where d.application_id = a.id`)} else '[]'::json end,
  'InstanceName', a.tenant_id
)::text
from applications a
left join lateral (
  select trim(i.first_name || ' ' || i.last_name) as name, i.phone from application_applicants i
  where i.application_id = a.id order by i.position limit 1
) p on true
where a.id = any(${ids}::bigint[]) and ${visible.condition}`;
  return { name: `application_details_${visible.name}`, text, values: params.values.slice(1) };
}

/** The visible application with this id, or undefined. */
export async function findVisibleApplication(db: Database, actor: Actor, applicationId: number) {
  const params = new Params();
  const id = params.add(applicationId);
  const visible = visibleById(params, actor);
  const rows = await sqlRunner(db).preparedTextRows(
    `visible_application_${visible.name}`,
    `select id::text, guid::text from applications where id = ${id} and ${visible.condition}`,
    params.values,
  );
  const row = rows[0];
  return row?.[0] && row[1] ? { id: Number(row[0]), guid: row[1] } : undefined;
}

/** The visible application with this guid, or undefined. */
export async function findVisibleApplicationByGuid(db: Database, actor: Actor, guid: string) {
  const params = new Params();
  const value = params.add(guid.toLowerCase());
  const visible = visibleById(params, actor);
  const rows = await sqlRunner(db).preparedTextRows(
    `visible_application_guid_${visible.name}`,
    `select id::text, guid::text from applications where guid = ${value}::uuid and ${visible.condition}`,
    params.values,
  );
  const row = rows[0];
  return row?.[0] && row[1] ? { id: Number(row[0]), guid: row[1] } : undefined;
}

export async function applicationIps(db: Database, applicationId: number) {
  const rows = await sqlRunner(db).textRows(
    `select applicant_name, ip, isp_name, is_vpn::text, ${epoch('event_at')}::text from application_ips where application_id = $1 order by event_at desc, id desc`,
    [applicationId],
  );
  return rows.map(([name, ip, isp, vpn, at]) => ({
    ApplicantName: name ?? '',
    Ip: ip ?? '',
    IspName: isp ?? '',
    IsVpn: vpn === 'true',
    EventDateTime: Number(at),
  }));
}

/** AM §3 activity feed, newest first. */
export async function activityFeed(db: Database, applicationId: number) {
  const rows = await db
    .select({ activity: applicationActivity.activity, at: sql<string>`${sql.raw(epoch('created_at'))}::text` })
    .from(applicationActivity)
    .where(eq(applicationActivity.applicationId, applicationId))
    .orderBy(desc(applicationActivity.createdAt), desc(applicationActivity.id));
  return rows.map((row) => ({ Activity: row.activity, TimeStamp: Number(row.at) }));
}

/** AM §3 comments, newest first. */
export async function commentsOf(db: Database, applicationId: number) {
  const rows = await db
    .select({
      id: applicationComments.id,
      name: applicationComments.userDisplayName,
      comment: applicationComments.comment,
      at: sql<string>`${sql.raw(epoch('created_at'))}::text`,
    })
    .from(applicationComments)
    .where(eq(applicationComments.applicationId, applicationId))
    .orderBy(desc(applicationComments.createdAt), desc(applicationComments.id));
  return rows.map((row) => ({ CommentId: row.id, UserDisplayName: row.name, CommentTimestamp: Number(row.at), Comment: row.comment }));
}

export const commentAddedActivity = (name: string) => `Comment added by ${name}`;
export const documentUploadedActivity = (file: string, name: string) => `Document ${file} uploaded by ${name}`;

/** Adds a comment and its activity-feed entry in one transaction. */
export async function addComment(db: Database, actor: Actor, applicationId: number, comment: string) {
  await db.transaction(async (tx) => {
    await tx.insert(applicationComments).values({ applicationId, userId: actor.userId, userDisplayName: actor.displayName, comment });
    await tx.insert(applicationActivity).values({
      tenantId: actor.tenantId,
      applicationId,
      userId: actor.userId,
      activity: commentAddedActivity(actor.displayName),
    });
  });
}

export interface StoredDocument {
  originalFileName: string;
  contentType: string;
  size: number;
  storageKey: string;
}

/**
 * Records uploaded documents (already in storage) with an activity-feed entry each and the
 * application's counts, in one transaction. Returns each document's public id and time.
 */
export async function recordUploads(db: Database, actor: Actor, applicationId: number, documents: readonly StoredDocument[]) {
  if (documents.length === 0) return [];
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(applicationDocuments)
      .values(
        documents.map((document) => ({
          applicationId,
          friendlyName: 'User upload',
          originalFileName: document.originalFileName,
          contentType: document.contentType,
          size: document.size,
          storageKey: document.storageKey,
          uploadedBy: actor.userId,
        })),
      )
      .returning({ publicId: applicationDocuments.publicId, at: sql<string>`${sql.raw(epoch('uploaded_at'))}::text` });
    await tx.insert(applicationActivity).values(
      documents.map((document) => ({
        tenantId: actor.tenantId,
        applicationId,
        userId: actor.userId,
        activity: documentUploadedActivity(document.originalFileName, actor.displayName),
      })),
    );
    await tx
      .update(applications)
      .set({
        documentCount: sql`${applications.documentCount} + ${documents.length}`,
        userUploadCount: sql`${applications.userUploadCount} + ${documents.length}`,
        lastDocumentUpload: sql`now()`,
      })
      .where(eq(applications.id, applicationId));
    return rows.map((row) => ({ publicId: row.publicId, uploadedAt: Number(row.at) }));
  });
}

export async function findDocument(db: Database, applicationId: number, publicId: string) {
  const [row] = await db
    .select()
    .from(applicationDocuments)
    .where(and(eq(applicationDocuments.applicationId, applicationId), eq(applicationDocuments.publicId, publicId.toLowerCase())));
  return row;
}

export async function documentsOf(db: Database, applicationId: number) {
  return db
    .select()
    .from(applicationDocuments)
    .where(eq(applicationDocuments.applicationId, applicationId))
    .orderBy(desc(applicationDocuments.uploadedAt), desc(applicationDocuments.id));
}

