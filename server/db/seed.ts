import { applicationManagerClaims, allClaims } from '../../src/domain/claims.ts';
import type { Database } from './client.ts';
import { federationKeys, tenantHosts, tenants, users } from './schema.ts';
import { demoFederationKey } from '../identity/federated-link.ts';
import { hashPassword } from '../identity/passwords.ts';
import { seedDemoApplications } from './applications-seed.ts';
import { seedVerificationExamples } from './identity-verification-seed.ts';
import { seedDemoVerifications } from './verifications-seed.ts';
import { seedUserManagement, userManagementSettings } from './users-seed.ts';

/** The one documented password of every demo account (README). */
export const demoPassword = 'Demo-Passw0rd!';

const logo = (initials: string, colour: string) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="${colour}"/><text x="20" y="26" font-family="sans-serif" font-size="16" font-weight="700" fill="#fff" text-anchor="middle">${initials}</text></svg>`,
  )}`;

const defaultSettings = {
  MaximumLabelLimit: 20,
  AcceptedDocumentUploadExtensions: ['pdf', 'jpg', 'jpeg', 'png', 'tif', 'tiff', 'docx'],
  ShowDocumentListBeforeCompletion: false,
  ShowEVSummaryResult: false,
  AustralianMobileNumberOnly: true,
  DisplayUserInviteAlert: false,
  UserInviteAlertText: '',
  EditPermissionsDisclaimerText: '',
  NewUserAppAccessToggleDefaultON: false,
};

export const seedTenants = [
  {
    id: 'demo',
    name: 'Demo Wealth',
    logoUrl: logo('DW', '#0b5cad'),
    primaryColor: '#0b5cad',
    secondaryColor: '#f0a202',
    supportEmail: 'support@demo.test',
    supportPhone: '1300 555 010',
    helpUrl: 'https://help.demo.test/',
    settings: { ...defaultSettings, ...userManagementSettings.demo },
  },
  {
    id: 'acme',
    name: 'Acme Super',
    logoUrl: logo('AS', '#1f7a4d'),
    primaryColor: '#1f7a4d',
    secondaryColor: '#c2410c',
    supportEmail: 'help@acme.test',
    supportPhone: '1800 555 020',
    helpUrl: 'https://help.acme.test/',
    settings: { ...defaultSettings, ...userManagementSettings.acme },
  },
];

const hosts = [
  { host: 'localhost', tenantId: 'demo' },
  { host: '127.0.0.1', tenantId: 'demo' },
  { host: 'demo.localhost', tenantId: 'demo' },
  { host: 'acme.localhost', tenantId: 'acme' },
];

const managerClaims = [
  'view.myapps',
  'view.allapps.instance',
  ...applicationManagerClaims.filter((claim) => claim.startsWith('app.') && claim !== 'app.depersonalise'),
  'label.add',
  'label.assign',
  'comment.add',
  'comments.view',
  'document.upload',
  'document.view',
  'document.download',
];

/**
 * The README's demo accounts. The admin staff ones hold application access (SUV §3
 * HasApplicationAccess): without it the server withholds their application claims (issue 39).
 */
export const demoAccounts = [
  { tenantId: 'demo', email: 'admin@demo.test', firstName: 'Avery', lastName: 'Admin', roleName: 'Admin Staff (Full Access)', claims: [...allClaims], hasApplicationAccess: true },
  { tenantId: 'demo', email: 'manager@demo.test', firstName: 'Morgan', lastName: 'Manager', roleName: 'Application Manager', claims: managerClaims },
  { tenantId: 'demo', email: 'staff@demo.test', firstName: 'Sam', lastName: 'Staff', roleName: 'Staff', claims: ['view.myapps', 'app.view', 'app.create', 'comment.add', 'comments.view', 'document.view'] },
  { tenantId: 'demo', email: 'readonly@demo.test', firstName: 'Riley', lastName: 'Reader', roleName: 'Admin Staff (Read Only)', claims: ['view.allapps.instance'], hasApplicationAccess: true },
  { tenantId: 'acme', email: 'admin@acme.test', firstName: 'Alex', lastName: 'Acme', roleName: 'Admin Staff (Full Access)', claims: [...allClaims], hasApplicationAccess: true },
  // Sign-in journeys (issue 31) change these accounts' passwords and second factors: no other test uses them.
  ...['reset', 'twostep', 'guesser'].map((name) => ({ tenantId: 'acme', email: `${name}@acme.test`, firstName: 'Jordan', lastName: name, roleName: 'Staff', claims: ['view.myapps', 'app.view'] })),
];

/** Idempotent: inserts what is missing and never overwrites what people changed. */
export async function seedDemo(db: Database): Promise<void> {
  await db.insert(tenants).values(seedTenants).onConflictDoNothing();
  await db.insert(tenantHosts).values(hosts).onConflictDoNothing();
  await insertMissingAccounts(db, demoAccounts);
  await db.insert(federationKeys).values(demoFederationKey).onConflictDoNothing();
  await seedDemoApplications(db);
  await seedVerificationExamples(db);
  // After the applications, so that their generated owners and names stay as they were.
  await insertMissingAccounts(db, laterDemoAccounts);
  await seedUserManagement(db, seedTenants.map((tenant) => tenant.id), demoRoles, demoPassword);
  await seedDemoVerifications(db);
}

/** Accounts added after the applications (their generated owners stay as they were). */
export const laterDemoAccounts = [
  // Issue 29: the individual verification claims only (lands on the Individual tab).
  { tenantId: 'demo', email: 'verifier@demo.test', firstName: 'Vera', lastName: 'Verifier', roleName: 'Staff', claims: ['entityverification.access', 'entityverification.individual'] },
  // The session journey changes this account's password; no other test signs in with it.
  { tenantId: 'acme', email: 'sessions@acme.test', firstName: 'Sasha', lastName: 'Sessions', roleName: 'Staff', claims: ['view.myapps', 'app.view'] },
];

async function insertMissingAccounts(db: Database, accounts: typeof demoAccounts) {
  const existing = new Set((await db.select({ email: users.email }).from(users)).map((row) => row.email));
  const missing = accounts.filter((account) => !existing.has(account.email));
  if (missing.length === 0) return;
  const passwordHash = await hashPassword(demoPassword);
  await db
    .insert(users)
    .values(missing.map((account) => ({ ...account, passwordHash })))
    .onConflictDoNothing();
}

/** SUV §3 roles of every tenant: the two admin staff roles and the roles the demo accounts hold. */
export const demoRoles = [
  { name: 'Admin Staff (Full Access)', claims: allClaims },
  { name: 'Admin Staff (Read Only)', claims: ['view.allapps.instance', 'app.view', 'comments.view', 'document.view'] },
  { name: 'Application Manager', claims: managerClaims },
  { name: 'Staff', claims: ['view.myapps', 'app.view', 'app.create', 'comment.add', 'comments.view', 'document.view'] },
];

/** The tenant's four role names: every demo account holds one of them (issue 39 point 14). */
export const tenantRoleNames: readonly string[] = demoRoles.map((role) => role.name);

/** Every README demo account, the later ones included. */
export const everyDemoAccount = [...demoAccounts, ...laterDemoAccounts];

/** What `npm start` prints after the addresses: every README demo account and its role. */
export function demoBannerLines(): string[] {
  return [`Demo accounts, password ${demoPassword}:`, ...everyDemoAccount.map((account) => `  ${account.email.padEnd(22)} ${account.roleName}`)];
}
