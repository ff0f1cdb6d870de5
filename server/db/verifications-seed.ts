import { eq, sql } from 'drizzle-orm';
import type { Database } from './client.ts';
import { users, verifications } from './schema.ts';
import { sandboxCompanies, unavailableReportAcn } from '../providers/company-registry/sandbox-company-registry.ts';

/**
 * Demo verifications (issue 29): a few hundred per tenant in every status and type, so the
 * Verifications page has pages to turn, searches to run and reports to download. Deterministic
 * (a fixed pseudo-random sequence); runs once per tenant. The bench uses the same generator for
 * 100,000 records.
 */
export const demoVerificationCount = 300;

const firstNames = ['Olivia', 'Liam', 'Charlotte', 'Noah', 'Amelia', 'Jack', 'Isla', 'William', 'Mia', 'Oliver', 'Ava', 'Thomas', 'Grace', 'James', 'Chloe', 'Lucas'];
const lastNames = ['Smith', 'Nguyen', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Johnson', 'White', 'Martin', 'Anderson', 'Thompson', 'Walker', 'Harris', 'Lee', 'Ryan', 'Kelly'];
const companyStatuses = ['Complete', 'Complete', 'Successful', 'success', 'Failed', 'fail', 'Pending', 'pending'] as const;
const individualStatuses = ['Complete', 'Complete', 'success', 'Failed', 'fail', 'Successful'] as const;
const biometricStatuses = ['Pending', 'pending', 'Complete', 'Failed'] as const;
const states = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const;

/** A small linear congruential generator: the same records on every machine. */
function sequence(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const resultOfStatus = (status: string, random: () => number) => {
  if (['Failed', 'fail'].includes(status)) return 'fail';
  if (['Pending', 'pending'].includes(status)) return '';
  return random() < 0.2 ? 'sanctions' : 'success';
};

type Row = typeof verifications.$inferInsert;

/** `count` records for the tenant, requested by its users in turn, created over the 90 days before `now`. */
export function verificationRows(tenantId: string, requesters: { id: string; name: string }[], count: number, now: Date, seed = 29): Row[] {
  const random = sequence(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const companies = sandboxCompanies.filter((company) => company.companyNumber !== unavailableReportAcn);
  const rows: Row[] = [];
  for (let index = 0; index < count; index++) {
    const requester = requesters[index % requesters.length]!;
    const createdAt = new Date(Math.floor((now.getTime() - random() * 90 * 86_400_000) / 1000) * 1000);
    const completedAt = new Date(createdAt.getTime() + Math.floor(random() * 600) * 1000);
    const base = { tenantId, requesterId: requester.id, requesterName: requester.name, createdAt, refCode: random() < 0.3 ? `REF-${1000 + index}` : '' };
    if (index % 5 < 2) {
      const company = pick(companies);
      const status = pick(companyStatuses);
      const pending = status.toLowerCase() === 'pending';
      rows.push({
        ...base,
        kind: 'company',
        requestType: 'Company',
        status,
        subjectName: company.companyName,
        companyNumber: company.companyNumber,
        provider: 'sandbox',
        details: pending ? {} : { ...company, asAt: createdAt.toISOString() },
        completedAt: pending ? null : completedAt,
      });
      continue;
    }
    const firstName = pick(firstNames);
    const lastName = pick(lastNames);
    const biometric = index % 5 === 4;
    const status = biometric ? pick(biometricStatuses) : pick(individualStatuses);
    const pending = status.toLowerCase() === 'pending';
    const mobile = `04${String(Math.floor(random() * 1e8)).padStart(8, '0')}`;
    const details = biometric
      ? {
          requestMetaData: { countryCode: 'AU', source: 'StandaloneVerification', verificationType: 'BiometricVerification' },
          individual: { firstName, lastName, contact: { mobileNumber: mobile } },
        }
      : {
          requestMetaData: { countryCode: 'AU', source: 'StandaloneVerification', verificationType: 'IndividualVerification' },
          individual: {
            firstName,
            lastName,
            dateOfBirth: `19${50 + Math.floor(random() * 50)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`,
            gender: 'NOTSET',
            address: { provider: 'manual_entry', streetNumber: String(1 + Math.floor(random() * 200)), streetName: 'Example', streetType: 'Street', suburb: 'Sandbox', state: pick(states), postcode: '2000', countryCode: 'AU' },
          },
          passport: { countryCode: 'AUS', number: `PA${String(Math.floor(random() * 1e7)).padStart(7, '0')}` },
        };
    rows.push({
      ...base,
      kind: 'individual',
      requestType: biometric ? 'BiometricVerification' : 'IndividualVerification',
      status,
      subjectName: `${firstName} ${lastName}`,
      mobileNumber: biometric ? mobile : '',
      overallResult: resultOfStatus(status, random),
      provider: 'sandbox',
      details: pending ? {} : details,
      completedAt: pending ? null : completedAt,
    });
  }
  return rows;
}

/** Inserts rows in batches (a statement has at most 65,535 parameters) and fills in provider references (as providerReferenceOf spells them). */
export async function insertVerificationRows(db: Database, rows: Row[]) {
  for (let start = 0; start < rows.length; start += 2000) await db.insert(verifications).values(rows.slice(start, start + 2000));
  await db.execute(sql`update verifications set provider_reference = provider || '-V' || id where provider_reference = '' and overall_result <> ''`);
}

/** The demo tenants' verifications; nothing when the tenant has some already. */
export async function seedDemoVerifications(db: Database, now = new Date()) {
  const tenantUsers = await db.select({ id: users.id, tenantId: users.tenantId, firstName: users.firstName, lastName: users.lastName }).from(users).orderBy(users.email);
  for (const tenantId of [...new Set(tenantUsers.map((user) => user.tenantId))]) {
    const [existing] = await db.select({ id: verifications.id }).from(verifications).where(eq(verifications.tenantId, tenantId)).limit(1);
    if (existing) continue;
    const requesters = tenantUsers.filter((user) => user.tenantId === tenantId).map((user) => ({ id: user.id, name: `${user.firstName} ${user.lastName}` }));
    await insertVerificationRows(db, verificationRows(tenantId, requesters, demoVerificationCount, now));
  }
}
