import { createHash } from 'node:crypto';
import { and, eq, like, sql } from 'drizzle-orm';
import type { Database } from './client.ts';
import { tenantRoles, userInvitations, users } from './schema.ts';
import type { UserStatus } from '../../src/domain/user-status.ts';
import { hashPassword } from '../identity/passwords.ts';
import { newInvitationToken } from '../identity/invitations.ts';

export interface SeedRole {
  name: string;
  claims: readonly string[];
}

/** Seeded staff per demo tenant (the five demo accounts are apart from these and stay as they are). */
export const seededUsersPerTenant = 300;
/** Seeded staff sign in with the demo password at `<first>.<last>.<n>@staff.<tenant>.test`. */
export const seededStaffDomain = (tenantId: string) => `staff.${tenantId}.test`;

const firstNames = ['Olivia', 'Noah', 'Charlotte', 'Jack', 'Amelia', 'William', 'Isla', 'Oliver', 'Mia', 'Leo', 'Ava', 'Henry', 'Grace', 'Thomas', 'Chloe', 'Lucas', 'Zoe', 'Ethan', 'Ruby', 'Mason', 'Priya', 'Wei', 'Aroha', 'Sione', 'Fatima', 'Dmitri', 'Ngozi', 'Mateo', 'Yuki', 'Siobhan'];
const lastNames = ['Smith', 'Jones', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Nguyen', 'Johnson', 'Martin', 'White', 'Anderson', 'Walker', 'Thompson', 'Harris', 'Lee', 'Ryan', 'Robinson', 'Kelly', 'King', 'Chen', 'Patel', 'O’Brien', 'Zhang', 'Singh', 'Rossi'];

/** Every status of SUV §4, in the proportions a real tenant might have. */
const statusCycle: UserStatus[] = [
  ...Array<UserStatus>(11).fill('Active'),
  'Normal',
  'Invited',
  'Invited',
  'LockedPasswordAttempts',
  'LockedMFAAttempts',
  'LockInactivity',
  'Deactivated',
  'Deactivated',
  'Active',
];

/**
 * The user-management settings a tenant gets where it has none: demo shows the international phone
 * input, the invite alert and access on by default; acme is Australian-only with the defaults.
 */
export const userManagementSettings: Record<string, Record<string, unknown>> = {
  demo: {
    AustralianMobileNumberOnly: false,
    DisplayUserInviteAlert: true,
    UserInviteAlertText: 'The person you invite receives an e-mail with a link to set their password. The link works once, for 7 days.',
    EditPermissionsDisclaimerText: '<p>Application access lets this administrator open <strong>your applications</strong>. It applies from their next sign-in.</p>',
    NewUserAppAccessToggleDefaultON: true,
    LockInactivityDays: 90,
  },
  acme: { AustralianMobileNumberOnly: true, DisplayUserInviteAlert: false, LockInactivityDays: 90 },
};

const daySeconds = 86_400;

/**
 * Roles for every tenant, a few hundred staff per demo tenant in every status, and the
 * user-management settings. Idempotent: roles and settings only where missing; the staff only when
 * the tenant has none yet. Deterministic: the same rows on every machine.
 */
export async function seedUserManagement(db: Database, tenantIds: readonly string[], roles: readonly SeedRole[], demoPassword: string) {
  for (const tenantId of tenantIds) {
    await db
      .insert(tenantRoles)
      .values(roles.map((role) => ({ tenantId, name: role.name, claims: [...role.claims] })))
      .onConflictDoNothing();
    const settings = userManagementSettings[tenantId];
    if (settings) {
      // Keys the tenant already has win: a data directory seeded before gets only the missing ones.
      await db.execute(sql`update tenants set settings = ${JSON.stringify(settings)}::jsonb || settings where id = ${tenantId}`);
    }
  }
  const activeHash = await hashPassword(demoPassword);
  const unusableHash = await hashPassword(newInvitationToken());
  const now = Date.now();
  for (const tenantId of tenantIds) {
    const domain = seededStaffDomain(tenantId);
    const [seeded] = await db.select({ count: sql<number>`count(*)::int` }).from(users).where(and(eq(users.tenantId, tenantId), like(users.email, `%@${domain}`)));
    if ((seeded?.count ?? 0) > 0) continue;
    const rows = Array.from({ length: seededUsersPerTenant }, (_, n) => {
      const firstName = firstNames[(n * 7) % firstNames.length] ?? 'Sam';
      const lastName = lastNames[(n * 11 + Math.floor(n / firstNames.length)) % lastNames.length] ?? 'Smith';
      const status = statusCycle[n % statusCycle.length] ?? 'Active';
      const role = roles[n % roles.length] ?? roles[0]!;
      const signedInDaysAgo = 1 + ((n * 13) % 60);
      const lastLoginAt = status === 'Invited' || n % 17 === 0 ? null : new Date(now - signedInDaysAgo * daySeconds * 1000 - (n % 24) * 3_600_000);
      const locked = status.startsWith('Lock');
      return {
        tenantId,
        email: `${firstName}.${lastName.replace(/[^A-Za-z]/g, '')}.${n}@${domain}`.toLowerCase(),
        firstName,
        lastName,
        roleName: role.name,
        claims: [...role.claims],
        passwordHash: status === 'Invited' ? unusableHash : activeHash,
        status,
        failedAttempts: status === 'LockedPasswordAttempts' ? 5 : 0,
        hasApplicationAccess: n % 3 !== 0,
        mobileNumber: `04${String(10_000_000 + n * 7919).slice(-8)}`,
        // Within the inactivity limit: a seeded account that never signed in can still sign in.
        createdAt: new Date(now - (61 + (n % 20)) * daySeconds * 1000),
        lastLoginAt: status === 'LockInactivity' ? new Date(now - 120 * daySeconds * 1000) : lastLoginAt,
        lockedAt: locked ? new Date(now - ((n % 5) + 1) * 3_600_000) : null,
      };
    });
    const inserted = await db.insert(users).values(rows).returning({ id: users.id, status: users.status });
    // The invited ones hold a live invitation (a token nobody has: Resend sends a usable one) and a few an expired one.
    const invited = inserted.filter((user) => user.status === 'Invited');
    if (invited.length > 0) {
      await db.insert(userInvitations).values(
        invited.map((user, index) => ({
          tenantId,
          userId: user.id,
          tokenHash: createHash('sha256').update(newInvitationToken()).digest('hex'),
          expiresAt: new Date(now + (index % 4 === 0 ? -2 : 5) * daySeconds * 1000),
        })),
      );
    }
  }
}
