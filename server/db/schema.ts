import { sql } from 'drizzle-orm';
import {
  pgTable,
  text,
  integer,
  jsonb,
  timestamp,
  uuid,
  serial,
  primaryKey,
  uniqueIndex,
  index,
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
  },
  (t) => [uniqueIndex('users_tenant_email').on(t.tenantId, t.email)],
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
