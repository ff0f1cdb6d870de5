import { sql } from 'drizzle-orm';
import {
  pgTable,
  text,
  integer,
  bigint,
  boolean,
  numeric,
  jsonb,
  timestamp,
  uuid,
  serial,
  primaryKey,
  uniqueIndex,
  index,
  customType,
} from 'drizzle-orm/pg-core';

/** A tenant: branding and support contacts shown on the login page, the shell and the unavailable pages. */
export const tenants = pgTable('tenants', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  logoUrl: text('logo_url').notNull(),
  primaryColor: text('primary_color').notNull(),
  secondaryColor: text('secondary_color').notNull(),
  supportEmail: text('support_email').notNull(),
  supportPhone: text('support_phone').notNull(),
  helpUrl: text('help_url').notNull(),
  /** Per-tenant values the spec leaves open (MaximumLabelLimit, upload extensions, UI flags). */
  settings: jsonb('settings').notNull().default(sql`'{}'::jsonb`),
  /** IANA time zone in which reports cut days, months and quarters (migration 0016). */
  timeZone: text('time_zone').notNull().default('Australia/Sydney'),
  /** Origin of links sent to people (`https://acme.example.com`); NULL: the development default (migration 0027, tenancy.ts). */
  origin: text('origin'),
});

/** Which host names serve which tenant; an unknown host gets the tenant-not-found page. */
export const tenantHosts = pgTable('tenant_hosts', {
  host: text('host').primaryKey(),
  tenantId: text('tenant_id')
    .notNull()
    .references(() => tenants.id),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    roleName: text('role_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    status: text('status').notNull().default('Active'),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    claims: text('claims').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /** Access tokens issued before this instant are refused: a password change signs out everywhere. */
    tokensValidAfter: timestamp('tokens_valid_after', { withTimezone: true }).notNull().defaultNow(),
    /** User management (issue 28, migration 0014): SUV §3 HasApplicationAccess and the invite's MobileNumber. */
    hasApplicationAccess: boolean('has_application_access').notNull().default(false),
    mobileNumber: text('mobile_number').notNull().default(''),
    /** When the current lock began (the status says why); null when not locked. */
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    /** Who last unlocked, deactivated or reactivated the account, and when. */
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
    statusChangedBy: uuid('status_changed_by'),
    /** Two-step verification (migration 0017): the confirmed TOTP secret, one being enrolled, the last step accepted. */
    totpSecret: text('totp_secret'),
    totpPendingSecret: text('totp_pending_secret'),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** Wrong codes, counted apart from wrong passwords since `mfaFailuresSince` (ten in 15 minutes lock). */
    mfaFailedAttempts: integer('mfa_failed_attempts').notNull().default(0),
    mfaFailuresSince: timestamp('mfa_failures_since', { withTimezone: true }),
  },
  (t) => [uniqueIndex('users_tenant_email').on(t.tenantId, t.email)],
);

/** SUV §3 Role: a tenant's named set of claims; inviting a user gives them the role's name and claims. */
export const tenantRoles = pgTable(
  'tenant_roles',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
    claims: text('claims').array().notNull(),
  },
  (t) => [uniqueIndex('tenant_roles_tenant_name').on(t.tenantId, t.name)],
);

/** An invitation link (issue 28): only the sha256 of its token is kept; used, revoked or replaced ends it. */
export const userInvitations = pgTable(
  'user_invitations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('user_invitations_token').on(t.tokenHash), index('user_invitations_user').on(t.userId)],
);

/** Every user-management action (who, what, to whom, when), written in the action's transaction. */
export const userAudit = pgTable(
  'user_audit',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    actorUserId: uuid('actor_user_id'),
    targetUserId: uuid('target_user_id').notNull(),
    action: text('action').notNull(),
    detail: text('detail').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_audit_target').on(t.targetUserId, t.createdAt)],
);

/** oidc-provider's sessions, grants, codes and refresh tokens, shared by every server instance. */
export const oidcModels = pgTable(
  'oidc_models',
  {
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.id] }),
    index('oidc_models_grant').on(t.grantId),
    index('oidc_models_uid').on(t.uid),
  ],
);

/** Signing keys and cookie secrets, generated once so every instance and every restart agree. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
});

/** Error reports the portal sends through Sentry's tunnel option. */
export const monitoringEnvelopes = pgTable('monitoring_envelopes', {
  id: serial('id').primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  envelope: text('envelope').notNull(),
});

/* ------------------------------------------------------------------------------------------------
 * Application manager (AM §3): the applications list and what it filters on.
 * `applications` is a denormalised read model of the list: every list column is a plain column of
 * one row, so a page is one index walk and 20 primary-key fetches, never a join per row.
 * ---------------------------------------------------------------------------------------------- */

/** A sort key of the list: the SQL expression (unqualified, over `applications`) and its type for keyset literals. */
export interface ApplicationSortKey {
  sql: string;
  type: 'bigint' | 'integer' | 'numeric' | 'text' | 'timestamptz';
}

/**
 * Sort key per list row field. Each has a partial index (tenant_id, key, id) over the rows that are
 * listed (not cancelled), so every column sorts, seeks and counts from an index; NULL-able dates sort
 * through coalesce so keyset comparisons never meet a NULL.
 */
export const applicationSortKeys = {
  ApplicationID: { sql: 'id', type: 'bigint' },
  PrimaryEmail: { sql: 'primary_email', type: 'text' },
  ClientName: { sql: 'client_name', type: 'text' },
  DateCreatedTimestamp: { sql: 'date_created', type: 'timestamptz' },
  AdviserName: { sql: 'adviser_name', type: 'text' },
  PercentageComplete: { sql: 'percentage_complete', type: 'integer' },
  LowDocStatus: { sql: 'low_doc_status', type: 'text' },
  Status: { sql: 'status', type: 'text' },
  Label: { sql: 'label', type: 'text' },
  SystemLabel: { sql: 'system_label', type: 'text' },
  ExternalID: { sql: 'external_id', type: 'text' },
  DateCompletedTimestamp: { sql: "coalesce(date_completed, '-infinity'::timestamptz)", type: 'timestamptz' },
  AssigneeDisplayName: { sql: 'assignee_display_name', type: 'text' },
  LastDocumentUploadTimestamp: { sql: "coalesce(last_document_upload, '-infinity'::timestamptz)", type: 'timestamptz' },
  DocumentCount: { sql: 'document_count', type: 'integer' },
  Language: { sql: 'language', type: 'text' },
  PromoCode: { sql: 'promo_code', type: 'text' },
  ApplicationModeCode: { sql: 'application_mode_code', type: 'text' },
  AccountNumber: { sql: 'account_number', type: 'text' },
  ApplicationType: { sql: 'application_type', type: 'text' },
  UserUploadCount: { sql: 'user_upload_count', type: 'integer' },
  SubBrandName: { sql: 'sub_brand_name', type: 'text' },
  ProductDisplayNameList: { sql: 'product_names', type: 'text' },
  AccountName: { sql: 'account_name', type: 'text' },
  InvestmentAmount: { sql: 'investment_amount', type: 'numeric' },
} as const satisfies Record<string, ApplicationSortKey>;

/**
 * The words `q` searches (AM §7: id, account name, client name, e-mail, external id, account number),
 * lower-cased with every run of other characters turned into a space, so that the 'simple'
 * configuration indexes plain words and a query word matches as a prefix (`smi:*`). Written by the
 * SQL function `application_search_document` (migration 0003), indexed on `applications` and kept in
 * `application_search`.
 */
export const applicationSearchDocument =
  'application_search_document(id, account_name, client_name, primary_email, external_id, account_number)';
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const listed = sql`status <> 'Cancelled'`;

/** AM §3 sub-brands of a tenant; an application carries the name (the filter value). */
export const subBrands = pgTable(
  'sub_brands',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.name] })],
);

/** The products a tenant offers; an application holds several by code. */
export const products = pgTable(
  'products',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.code] })],
);

/** Labels people create (kind 'label', at most MaximumLabelLimit) and system labels, shown as Tag (kind 'system'). */
export const applicationLabels = pgTable(
  'application_labels',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind, t.name] })],
);

/**
 * Application owners (AM §3 Owner: PublicId, DisplayName, GlobalUserId): advisers on whose behalf
 * applications are made. `globalUserId` is the owner's identity; when the owner signs in to the
 * portal it is their `users.id`, which is what makes an application theirs in My Apps.
 */
export const applicationOwners = pgTable(
  'application_owners',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    globalUserId: uuid('global_user_id').notNull(),
    displayName: text('display_name').notNull(),
    email: text('email').notNull(),
    location: text('location').notNull().default(''),
  },
  (t) => [uniqueIndex('application_owners_tenant_user').on(t.tenantId, t.globalUserId)],
);

/**
 * Which locations and restriction groups a portal user may see under `view.allapps.location` and
 * `view.allapps.restrictiongroup` (docs/decisions/001). No row means none.
 */
export const userVisibility = pgTable('user_visibility', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  tenantId: text('tenant_id')
    .notNull()
    .references(() => tenants.id),
  locations: text('locations').array().notNull().default(sql`'{}'::text[]`),
  restrictionGroups: text('restriction_groups').array().notNull().default(sql`'{}'::text[]`),
});

/**
 * One application as the list shows it (AM §3 Application list row). Text columns hold '' for
 * "none", which is exactly what the '(None)' filter option (empty value) matches.
 */
export const applications = pgTable(
  'applications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    guid: uuid('guid').notNull().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    status: text('status').notNull(),
    /** The status before the last change (detail LastApplicationStatus); '' when never changed. */
    previousStatus: text('previous_status').notNull().default(''),
    accountName: text('account_name').notNull().default(''),
    clientName: text('client_name').notNull().default(''),
    primaryEmail: text('primary_email').notNull().default(''),
    externalId: text('external_id').notNull().default(''),
    accountNumber: text('account_number').notNull().default(''),
    subBrandName: text('sub_brand_name').notNull().default(''),
    productCodes: text('product_codes').array().notNull().default(sql`'{}'::text[]`),
    /**
     * The product names as the list shows them (the codes' catalogue names, in order, joined by
     * ', '): the Products column sorts by what people read, not by codes. Written by triggers on
     * every insert, every change of the codes and every rename of a product (migration 0004).
     */
    productNames: text('product_names').notNull().default(''),
    label: text('label').notNull().default(''),
    systemLabel: text('system_label').notNull().default(''),
    assigneeUserId: uuid('assignee_user_id').references(() => users.id),
    assigneeDisplayName: text('assignee_display_name').notNull().default(''),
    ownerId: uuid('owner_id').references(() => applicationOwners.id),
    adviserName: text('adviser_name').notNull().default(''),
    /** Visibility (docs/decisions/001): the branch the application belongs to and its restriction group. */
    location: text('location').notNull().default(''),
    restrictionGroup: text('restriction_group').notNull().default(''),
    dateCreated: timestamp('date_created', { withTimezone: true }).notNull().defaultNow(),
    dateCompleted: timestamp('date_completed', { withTimezone: true }),
    lastDocumentUpload: timestamp('last_document_upload', { withTimezone: true }),
    applicationType: text('application_type').notNull().default(''),
    shortApplicationType: text('short_application_type').notNull().default(''),
    promoCode: text('promo_code').notNull().default(''),
    investmentAmount: numeric('investment_amount', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    language: text('language').notNull().default(''),
    lowDocStatus: text('low_doc_status').notNull().default(''),
    documentCount: integer('document_count').notNull().default(0),
    userUploadCount: integer('user_upload_count').notNull().default(0),
    /** Signing mode: 'Pin' (Online) or 'PrintandSign'. */
    applicationModeCode: text('application_mode_code').notNull().default('Pin'),
    percentageComplete: integer('percentage_complete').notNull().default(0),
    /** The last form section an incomplete application reached (Reports, detail); null when none recorded. */
    lastSection: text('last_section'),
  },
  (t) => [
    uniqueIndex('applications_guid').on(t.guid),
    // The id is its own tie-break: (tenant_id, id) serves the default sort. Each also carries the
    // status (INCLUDE, which Drizzle cannot declare: migration 0029), so a status-filtered walk reads
    // the index alone.
    ...Object.entries(applicationSortKeys).map(([field, key]) =>
      key.sql === 'id'
        ? index(`applications_sort_${field.toLowerCase()}`).on(t.tenantId, t.id).where(listed)
        : index(`applications_sort_${field.toLowerCase()}`).on(t.tenantId, sql.raw(key.sql), t.id).where(listed),
    ),
    index('applications_owner').on(t.tenantId, t.ownerId).where(listed),
    index('applications_assignee').on(t.tenantId, t.assigneeUserId).where(listed),
    index('applications_location').on(t.tenantId, t.location).where(listed),
    index('applications_restriction_group').on(t.tenantId, t.restrictionGroup).where(listed),
    index('applications_products').using('gin', t.productCodes).where(listed),
    // A search beside other filters: the planner combines this index with theirs.
    index('applications_search').using('gin', sql.raw(applicationSearchDocument)).where(listed),
    // Reports: index-only reads of the applications created or completed in a range (their INCLUDE
    // columns, which Drizzle cannot declare, are in migration 0016).
    index('applications_report_created')
      .on(t.tenantId, t.dateCreated)
      .where(listed),
    index('applications_report_completed')
      .on(t.tenantId, t.dateCompleted)
      .where(sql`status <> 'Cancelled' AND date_completed IS NOT NULL`),
  ],
);

/**
 * The search words of each listed (not cancelled) application, kept by triggers on `applications`
 * (migration 0003). A search alone reads this narrow table (about a third of the pages of
 * `applications`) instead of visiting every matching row of the wide one: a search matching a
 * quarter of a million rows touches each of their pages (docs/decisions/001).
 */
export const applicationSearch = pgTable(
  'application_search',
  {
    id: bigint('id', { mode: 'number' }).primaryKey(),
    tenantId: text('tenant_id').notNull(),
    document: tsvector('document').notNull(),
  },
  (t) => [index('application_search_document').using('gin', t.document)],
);

/** The activity feed (AM §3 Activity item): one entry per state-changing action, written in its transaction. */
export const applicationActivity = pgTable(
  'application_activity',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    activity: text('activity').notNull(),
    userId: uuid('user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('application_activity_application').on(t.applicationId, t.createdAt)],
);

/**
 * Bumped by triggers in the same transaction as every write to applications, owners or user
 * visibility: list caches (TotalRows, seek positions) are valid only for the version they read.
 */
export const applicationDataVersions = pgTable('application_data_versions', {
  tenantId: text('tenant_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/**
 * The applications each list data version changed (migration 0022; NULL: unknown, such as a change of
 * owners) and what each row was before (0023): a cached list is brought up to date by re-placing only
 * those rows and adjusting its count by their delta (catchUp in applications-list.ts).
 */
export const applicationListChanges = pgTable(
  'application_list_changes',
  {
    tenantId: text('tenant_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
    applicationId: bigint('application_id', { mode: 'number' }),
    /** The row before the change (migration 0023: to_jsonb of it); NULL for an insert or an unknown id. */
    oldRow: jsonb('old_row'),
  },
  (t) => [index('application_list_changes_version').on(t.tenantId, t.version)],
);

/**
 * Scrubs owed after a depersonalise (migration 0025): written in the depersonalise's transaction,
 * deleted by the scrub once the old values are gone from disk and statistics (server/db/freed-space.ts).
 */
export const pendingScrubs = pgTable('pending_scrubs', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
  applicationId: bigint('application_id', { mode: 'number' }).notNull(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The users page's and the verification lists' data versions per tenant (migration 0021): bumped by
 * triggers with every write to `users` or `verifications`, so a kept list answer is valid only for
 * the version it was read at.
 */
export const listDataVersions = pgTable(
  'list_data_versions',
  {
    tenantId: text('tenant_id').notNull(),
    list: text('list').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.list] })],
);

/** Admin column configuration (AM §3): a row only where the tenant departed from the default. */
export const listColumnSettings = pgTable(
  'list_column_settings',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    columnName: text('column_name').notNull(),
    viewable: boolean('viewable').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.columnName] })],
);

/** Admin detail-row configuration (AM §3): a row only where the tenant departed from the default. */
export const detailRowSettings = pgTable(
  'detail_row_settings',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    rowName: text('row_name').notNull(),
    viewable: boolean('viewable').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.rowName] })],
);

/* ----------------------------------------------------------------------------------------------
 * The application detail (AM §3 "Application (detail)" and its related entities). Every table is
 * read by application id through its own index, so the detail is one statement of index lookups
 * (application-detail-store.ts). The tenant is the application's: rows are reached only through it.
 * ---------------------------------------------------------------------------------------------- */

/**
 * The individuals of an application (position 0 is the primary applicant). The applicant's
 * approval (AM §3 Applicant approval) and TFN (AM §3 Tax) are one per individual, so they are
 * columns here rather than tables of their own: the detail reads one row per person for three cards.
 */
export const applicationApplicants = pgTable(
  'application_applicants',
  {
    /** IndividualId, and the EntityGuid of the person's requirements. */
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    position: integer('position').notNull().default(0),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    dateOfBirth: text('date_of_birth').notNull().default(''),
    address: text('address').notNull().default(''),
    /** Tax file number; '' when not provided. Sent only to callers with app.taxdetails.viewsensitive. */
    tfn: text('tfn').notNull().default(''),
    /** Approved, Declined or anything else (pending); '' before the applicant has been asked. */
    approvalStatus: text('approval_status').notNull().default(''),
    isMfaLocked: boolean('is_mfa_locked').notNull().default(false),
    approvalUpdatedAt: timestamp('approval_updated_at', { withTimezone: true }),
    sendEmail: boolean('send_email').notNull().default(true),
  },
  (t) => [index('application_applicants_application').on(t.applicationId, t.position)],
);

/** AM §3 Requirement: an identification requirement of one individual (EntityGuid). */
export const applicationRequirements = pgTable(
  'application_requirements',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    entityGuid: uuid('entity_guid').notNull(),
    name: text('name').notNull(),
    /** 0 means success. */
    result: integer('result').notNull(),
    resultText: text('result_text').notNull().default(''),
    /** HTML, sanitised by the portal before display. */
    actionRequired: text('action_required').notNull().default(''),
    eligibleForReverification: boolean('eligible_for_reverification').notNull().default(false),
    eligibleForNewVerification: boolean('eligible_for_new_verification').notNull().default(false),
    eligibleForSanctionsVerification: boolean('eligible_for_sanctions_verification').notNull().default(false),
  },
  (t) => [index('application_requirements_application').on(t.applicationId, t.id)],
);

/** AM §3 Additional document: what is still outstanding (the Outstanding documents card). */
export const applicationOutstandingDocuments = pgTable(
  'application_outstanding_documents',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    name: text('name').notNull(),
    actionRequired: text('action_required').notNull().default(''),
  },
  (t) => [index('application_outstanding_documents_application').on(t.applicationId, t.id)],
);

/** AM §3 Exception: a business rule the application broke (shown with exceptions.view). */
export const applicationViolations = pgTable(
  'application_violations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    name: text('name').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('application_violations_application').on(t.applicationId, t.occurredAt)],
);

/** AM §3 VPN summary: the addresses the applicants used, with the IP lookup's ISP and VPN verdict. */
export const applicationIps = pgTable(
  'application_ips',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    applicantName: text('applicant_name').notNull(),
    ip: text('ip').notNull(),
    ispName: text('isp_name').notNull().default(''),
    isVpn: boolean('is_vpn').notNull().default(false),
    eventAt: timestamp('event_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('application_ips_application').on(t.applicationId, t.eventAt)],
);

/**
 * AM §3 Document: metadata; the bytes are in file storage (server/storage) under `storageKey`.
 * Seeded documents share a few sample files, so several rows may name one key.
 */
export const applicationDocuments = pgTable(
  'application_documents',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    /** LabDocsId: the public id a download names (with the application guid). */
    publicId: uuid('public_id').notNull().defaultRandom(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    /** ArtifactFriendlyName: 'User upload' for uploads, the form's artifact name otherwise. */
    friendlyName: text('friendly_name').notNull(),
    originalFileName: text('original_file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    storageKey: text('storage_key').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    uploadedBy: uuid('uploaded_by'),
  },
  (t) => [index('application_documents_application').on(t.applicationId, t.uploadedAt), uniqueIndex('application_documents_public_id').on(t.publicId)],
);

/** AM §3 Comment. */
export const applicationComments = pgTable(
  'application_comments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    userId: uuid('user_id'),
    userDisplayName: text('user_display_name').notNull(),
    comment: text('comment').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('application_comments_application').on(t.applicationId, t.createdAt)],
);

/**
 * Document bytes when they live in the database (docs/decisions/004): one row per chunk, so a file
 * is written and read a chunk at a time and never held whole in memory.
 */
export const storedFileChunks = pgTable(
  'stored_file_chunks',
  {
    key: text('key').notNull(),
    seq: integer('seq').notNull(),
    data: customType<{ data: Buffer }>({ dataType: () => 'bytea' })('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.seq] })],
);

/**
 * Bulk uploads (issue 15): each imported file's hash, so the same file within an hour is refused
 * rather than imported twice, and the error workbooks people download to fix their file. An error
 * file belongs to its tenant and expires; rows past expiry are never served and are swept on write.
 */
export const bulkUploads = pgTable(
  'bulk_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: uuid('user_id'),
    /** 'imported' (sha256 kept for duplicate detection) or 'invalid' (errorFile kept for download). */
    outcome: text('outcome').notNull(),
    sha256: text('sha256').notNull(),
    fileName: text('file_name').notNull().default(''),
    rowCount: integer('row_count').notNull().default(0),
    errorFile: customType<{ data: Buffer }>({ dataType: () => 'bytea' })('error_file'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('bulk_uploads_tenant_hash').on(t.tenantId, t.sha256, t.createdAt)],
);

/**
 * The outbox (issue 13, docs/decisions/006): every message sent, e-mail now and SMS later (channel),
 * written in the same transaction as the action's activity item. `transport` says how it left:
 * 'sandbox' (kept here only, the default) or 'smtp' (delivered, `transportId` the server's message id).
 * The admin-only page /outbox lists a tenant's rows newest first.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    channel: text('channel').$type<'email' | 'sms'>().notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull().default(''),
    /** Plain text as sent; `html` is the HTML alternative of an e-mail ('' for SMS). */
    body: text('body').notNull(),
    html: text('html').notNull().default(''),
    transport: text('transport').notNull(),
    transportId: text('transport_id').notNull().default(''),
    applicationId: bigint('application_id', { mode: 'number' }).references(() => applications.id),
    userId: uuid('user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outbox_tenant_created').on(t.tenantId, t.createdAt, t.id), index('outbox_application').on(t.applicationId)],
);

/**
 * Verifications (issue 29, SUV §2-§4, migration 0015): company and individual checks per tenant.
 * `details` holds what the report shows (registry extract or verify request), so the PDF is rebuilt
 * byte for byte from the record; `search` is generated from the searchable words.
 */
export const verifications = pgTable(
  'verifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    kind: text('kind').$type<'company' | 'individual'>().notNull(),
    requestType: text('request_type').notNull(),
    status: text('status').notNull(),
    subjectName: text('subject_name').notNull(),
    companyNumber: text('company_number').notNull().default(''),
    mobileNumber: text('mobile_number').notNull().default(''),
    requesterId: uuid('requester_id'),
    requesterName: text('requester_name').notNull(),
    refCode: text('ref_code').notNull().default(''),
    overallResult: text('overall_result').notNull().default(''),
    provider: text('provider').notNull().default(''),
    providerReference: text('provider_reference').notNull().default(''),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    inviteToken: text('invite_token'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    search: tsvector('search').generatedAlwaysAs(
      sql`strip(to_tsvector('simple'::regconfig, regexp_replace(lower("subject_name" || ' ' || "company_number" || ' ' || "ref_code" || ' ' || "requester_name"), '[^a-z0-9]+', ' ', 'g')))`,
    ),
  },
  (t) => [
    index('verifications_list').on(t.tenantId, t.kind, t.createdAt.desc(), t.id.desc()),
    index('verifications_search').using('gin', t.search),
    uniqueIndex('verifications_invite_token').on(t.inviteToken),
  ],
);

/** The verifications' audit trail: one entry per state-changing action, written in its transaction. */
export const verificationActivity = pgTable(
  'verification_activity',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    verificationId: bigint('verification_id', { mode: 'number' })
      .notNull()
      .references(() => verifications.id),
    userId: uuid('user_id'),
    activity: text('activity').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verification_activity_verification').on(t.verificationId, t.createdAt)],
);

/** One-time recovery codes of two-step verification, as SHA-256 hashes (migration 0017). */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/** A sign-in between its password and its code (keyed by the identity provider's interaction). */
export const mfaChallenges = pgTable('mfa_challenges', {
  interactionUid: text('interaction_uid').primaryKey(),
  userId: uuid('user_id').notNull(),
  wrongCodes: integer('wrong_codes').notNull().default(0),
  /** Set when a required enrolment was confirmed in this sign-in: Continue then finishes it. */
  enrolled: boolean('enrolled').notNull().default(false),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** The step the sign-in is at: only that step's route may answer it (migration 0024). */
  step: text('step', { enum: ['code', 'enrol'] }).notNull().default('code'),
});

/** Forgot password links: SHA-256 of the token, single use, 30 minutes. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_reset_tokens_user').on(t.userId)],
);

/** A federation partner's HMAC-SHA256 keys per tenant; the key id lets keys rotate. */
export const federationKeys = pgTable(
  'federation_keys',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    keyId: text('key_id').notNull(),
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.keyId] })],
);

/** Nonces of federated links already used: each link signs in once. */
export const federationNonces = pgTable(
  'federation_nonces',
  {
    tenantId: text('tenant_id').notNull(),
    nonce: text('nonce').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.nonce] })],
);

/** The account's own audit trail: resets, two-step verification, recovery codes, unlocks. */
export const accountAudit = pgTable(
  'account_audit',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text('tenant_id').notNull(),
    userId: uuid('user_id').notNull(),
    activity: text('activity').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The address a lock came from (migration 0018); empty for entries without one. */
    sourceAddress: text('source_address').notNull().default(''),
  },
  (t) => [index('account_audit_user').on(t.userId, t.createdAt)],
);

/**
 * Failed sign-ins of names with no lockable account (unknown or deactivated e-mails), counted as a
 * real account's failedAttempts are, so 'locked' shows after the same five (issue 27 point 9).
 */
export const signInNameFailures = pgTable(
  'sign_in_name_failures',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    email: text('email').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.email] })],
);

/** Fixed-window counters shared by every instance on one PostgreSQL (server/counters.ts). */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetsAt: timestamp('resets_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_counters_resets_at').on(t.resetsAt)],
);

/**
 * Wrong passwords sent with a valid device cookie, counted per cookie (its nonce) apart from the
 * account's own count; five lock out that cookie only (migration 0018, server/identity/device-cookie.ts).
 */
export const deviceCookieFailures = pgTable(
  'device_cookie_failures',
  {
    nonce: text('nonce').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('device_cookie_failures_user').on(t.userId)],
);
