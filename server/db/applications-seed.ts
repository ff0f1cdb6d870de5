import type { Faker } from '@faker-js/faker';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Database } from './client.ts';
import {
  applicationLabels,
  applicationOwners,
  applications,
  products,
  subBrands,
  tenants,
  users,
  userVisibility,
} from './schema.ts';
import { sqlRunner } from './sql-runner.ts';
import { depersonalisedApplicationColumns } from './depersonalise-store.ts';
import { backfillDetails, detailTables, emptyDetailLines, generateDetail, loadDetailLines } from './application-detail-seed.ts';

/**
 * Realistic, deterministic applications for a tenant (AM §3), from @faker-js/faker with a fixed
 * seed. Row i of a tenant is the same whatever the batch sizes or how many runs it took to get
 * there: rows come in blocks of `blockSize`, each generated from its own seed.
 */

const blockSize = 10_000;
/** Dates are relative to a fixed instant so that the same seed gives the same data on any day. */
export const seedAnchor = new Date('2026-11-01T00:00:00Z');

export const seedLocations = ['Sydney', 'Melbourne', 'Brisbane', 'Perth', 'Adelaide', 'Hobart'];
export const seedRestrictionGroups = ['Retail', 'Wholesale', 'Private Clients', 'Institutional'];
export const seedProducts = [
  { code: 'CMA', name: 'Cash Management Account' },
  { code: 'TD', name: 'Term Deposit' },
  { code: 'MF', name: 'Managed Funds' },
  { code: 'SUPER', name: 'Superannuation' },
  { code: 'PENSION', name: 'Account Based Pension' },
  { code: 'SMA', name: 'Separately Managed Account' },
  { code: 'SHARES', name: 'Share Trading' },
  { code: 'INSURANCE', name: 'Life Insurance' },
];
/** Each code's name, as migration 0004's application_product_names() reads them from the catalogue. */
const productNames = new Map(seedProducts.map((product) => [product.code, product.name]));
export const seedLabels = [
  'Follow up',
  'Urgent',
  'Awaiting client',
  'Awaiting docs',
  'Compliance',
  'High value',
  'Priority',
  'Referred',
  'VIP',
  'On hold',
  'Call back',
  'Escalated',
];
export const seedSystemLabels = ['Bulk upload', 'API', 'Migrated', 'Re-papered', 'Adviser portal'];
const subBrandSuffixes = ['Direct', 'Advice', 'Private', 'Super'];

type Weighted<T> = readonly (readonly [T, number])[];
const statusWeights: Weighted<string> = [
  ['Adviser edit', 18],
  ['Adviser submit', 7],
  ['Primary edit', 9],
  ['Primary submit', 7],
  ['Secondary review', 5],
  ['Documents pending', 10],
  ['Complete', 28],
  ['Locked', 3],
  ['Depersonalised', 2],
  ['Cancelled', 8],
  // A status outside the spec's list: the portal must show it as plain text.
  ['Awaiting funds', 1],
];
/**
 * The five application types of the Reports page (SUV §2), and Partnership, which it shows as
 * "Other". Each takes the place (and weight) of an earlier type whose account name drew the same,
 * so every other field of a row is what it was before the types were renamed.
 */
const typeWeights: Weighted<readonly [string, string]> = [
  [['Individual', 'IND'], 40],
  [['Joint', 'JNT'], 20],
  [['Company', 'CO'], 12],
  [['Trust Individual', 'TRI'], 12],
  [['Trust Corporate', 'TRC'], 10],
  [['Partnership', 'PTN'], 6],
];
/**
 * The application form's sections in order (Reports: Last Section for Incomplete Applications). An
 * incomplete application's last section follows from how far it got, so it costs no draw.
 */
export const seedFormSections = [
  'Applicant details',
  'Contact details',
  'Identification',
  'Investment details',
  'Tax information',
  'Bank account',
  'Documents',
  'Declaration',
] as const;
export const lastSectionFor = (percentageComplete: number): string =>
  seedFormSections[Math.min(seedFormSections.length - 1, Math.floor((percentageComplete / 100) * seedFormSections.length))] ?? 'Applicant details';
/** Completion takes between 5 minutes and 45 days, log-uniformly: most forms finish within hours. */
const minCompletionSeconds = 300;
const maxCompletionSeconds = 45 * 86_400;
const languageWeights: Weighted<string> = [
  ['English', 85],
  ['Chinese', 5],
  ['Vietnamese', 3],
  ['Arabic', 2],
  ['Italian', 2],
  ['Greek', 2],
  ['Hindi', 1],
];
const promoCodes = ['SPRING26', 'ADVISER10', 'WELCOME', 'SUPER500', 'REFER1', 'EOFY26'];
const emailDomains = ['example.com', 'example.net', 'example.org', 'mail.example.com'];

/** The columns the seed writes, in COPY order. */
const seedColumns = [
  'guid',
  'tenant_id',
  'status',
  'account_name',
  'client_name',
  'primary_email',
  'external_id',
  'account_number',
  'sub_brand_name',
  'product_codes',
  'product_names',
  'label',
  'system_label',
  'assignee_user_id',
  'assignee_display_name',
  'owner_id',
  'adviser_name',
  'location',
  'restriction_group',
  'date_created',
  'date_completed',
  'last_document_upload',
  'application_type',
  'short_application_type',
  'promo_code',
  'investment_amount',
  'language',
  'low_doc_status',
  'document_count',
  'user_upload_count',
  'application_mode_code',
  'percentage_complete',
  'last_section',
] as const;
type SeedRow = Record<(typeof seedColumns)[number], string | number | null>;

export interface SeedContext {
  tenantId: string;
  tenantName: string;
  subBrands: string[];
  owners: { id: string; displayName: string; location: string; weight: number }[];
  assignees: { id: string; displayName: string }[];
}

function pickWeighted<T>(faker: Faker, weights: Weighted<T>): T {
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = faker.number.float({ min: 0, max: total });
  for (const [value, weight] of weights) {
    roll -= weight;
    if (roll <= 0) return value;
  }
  const last = weights[weights.length - 1];
  if (!last) throw new Error('No weights');
  return last[0];
}

const chance = (faker: Faker, probability: number) => faker.number.float({ min: 0, max: 1 }) < probability;
const digits = (faker: Faker, length: number) => faker.string.numeric({ length, allowLeadingZeros: true });

function accountNameFor(faker: Faker, type: string, first: string, last: string): string {
  switch (type) {
    case 'Joint':
      return `${first} & ${faker.person.firstName()} ${last}`;
    case 'Company': {
      // Some generated company names carry their suffix already ('Gibson Pty Ltd'): not twice.
      const name = faker.company.name();
      return /\bPty\.? Ltd\.?$/i.test(name) ? name : `${name} Pty Ltd`;
    }
    case 'Trust Individual':
      return `${last} Family Trust`;
    case 'Trust Corporate':
      return `${last} Nominees Pty Ltd ATF ${last} Trust`;
    case 'Partnership':
      return `${last} & ${faker.person.lastName()} Partners`;
    default:
      return `${first} ${last}`;
  }
}

function generateRow(faker: Faker, context: SeedContext): SeedRow {
  const [type, shortType] = pickWeighted(faker, typeWeights);
  const status = pickWeighted(faker, statusWeights);
  const first = faker.person.firstName();
  const last = faker.person.lastName();
  const anchor = seedAnchor.getTime();
  const created = anchor - faker.number.int({ min: 3_600, max: 3 * 365 * 86_400 }) * 1000;
  const completedStatus = status === 'Complete' || (status === 'Depersonalised' && chance(faker, 0.6));
  // Completed within 45 days of creation and before the anchor, at a time of its own (clamping to the
  // anchor made every late one complete at exactly 00:00).
  const completionSpan = Math.floor((anchor - created) / 1000) - 60;
  // One draw, as the uniform draw it replaced, so the fields after it draw as before.
  const completionSeconds = () =>
    Math.round(Math.exp(faker.number.float({ min: Math.log(minCompletionSeconds), max: Math.log(maxCompletionSeconds) })));
  const completed = completedStatus ? created + Math.max(Math.min(60, completionSpan), Math.min(completionSeconds(), completionSpan)) * 1000 : null;
  const documentCount = completedStatus ? faker.number.int({ min: 1, max: 12 }) : faker.number.int({ min: 0, max: 6 });
  const lastUpload =
    documentCount > 0 ? created + Math.floor(faker.number.float({ min: 0, max: 1 }) * ((completed ?? anchor) - created)) : null;
  const owner = pickWeighted(faker, context.owners.map((candidate) => [candidate, candidate.weight] as const));
  const assignee = chance(faker, 0.45) ? faker.helpers.arrayElement(context.assignees) : undefined;
  const productCount = chance(faker, 0.05) ? 0 : faker.number.int({ min: 1, max: 4 });
  const productCodes = faker.helpers.arrayElements(
    seedProducts.map((product) => product.code),
    productCount,
  );
  const amount = Math.min(5_000_000, Math.max(1_000, Math.round(Math.exp(faker.number.float({ min: 8, max: 14 })) / 100) * 100));
  const depersonalised = status === 'Depersonalised';
  const emailUser = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '');
  // A depersonalised row holds what depersonalising leaves (depersonalisedApplicationColumns), as the
  // product writes it. Values are drawn in the order they always were, whatever is kept of them, so
  // that every row's other values stay what they were.
  const gone = depersonalisedApplicationColumns;
  const accountName = depersonalised ? gone.accountName : accountNameFor(faker, type, first, last);
  const primaryEmail = depersonalised ? gone.primaryEmail : `${emailUser}${faker.number.int({ min: 1, max: 999 })}@${faker.helpers.arrayElement(emailDomains)}`;
  const externalId = chance(faker, 0.6) ? `EXT-${digits(faker, 8)}` : '';
  const accountNumber = completedStatus || chance(faker, 0.15) ? digits(faker, 9) : '';

  const row = {
    guid: faker.string.uuid(),
    tenant_id: context.tenantId,
    status,
    account_name: accountName,
    client_name: depersonalised ? gone.clientName : `${first} ${last}`,
    primary_email: primaryEmail,
    external_id: depersonalised ? gone.externalId : externalId,
    account_number: depersonalised ? gone.accountNumber : accountNumber,
    sub_brand_name: chance(faker, 0.9) ? faker.helpers.arrayElement(context.subBrands) : '',
    product_codes: `{${productCodes.join(',')}}`,
    product_names: productCodes.map((code) => productNames.get(code) ?? code).join(', '),
    label: chance(faker, 0.35) ? faker.helpers.arrayElement(seedLabels) : '',
    system_label: chance(faker, 0.2) ? faker.helpers.arrayElement(seedSystemLabels) : '',
    assignee_user_id: assignee?.id ?? null,
    assignee_display_name: assignee?.displayName ?? '',
    owner_id: owner.id,
    adviser_name: owner.displayName,
    location: chance(faker, 0.85) ? owner.location : faker.helpers.arrayElement(seedLocations),
    restriction_group: faker.helpers.arrayElement(seedRestrictionGroups),
    date_created: new Date(created).toISOString(),
    date_completed: completed === null ? null : new Date(completed).toISOString(),
    last_document_upload: lastUpload === null || depersonalised ? gone.lastDocumentUpload : new Date(lastUpload).toISOString(),
    application_type: type,
    short_application_type: shortType,
    promo_code: chance(faker, 0.15) ? faker.helpers.arrayElement(promoCodes) : '',
    investment_amount: amount,
    language: pickWeighted(faker, languageWeights),
    low_doc_status: faker.helpers.arrayElement(['Required', 'Provided', 'Not Required']),
    document_count: depersonalised ? gone.documentCount : documentCount,
    // Drawn for every row (see above); at most documentCount, so the minimum is the draw unless depersonalised.
    user_upload_count: Math.min(faker.number.int({ min: 0, max: documentCount }), depersonalised ? gone.userUploadCount : documentCount),
    application_mode_code: chance(faker, 0.8) ? 'Pin' : 'PrintandSign',
    percentage_complete: completedStatus ? 100 : status === 'Adviser edit' ? faker.number.int({ min: 0, max: 40 }) : faker.number.int({ min: 20, max: 95 }),
  } satisfies Omit<SeedRow, 'last_section'>;
  return { ...row, last_section: completed === null ? lastSectionFor(row.percentage_complete) : null };
}

let fakerLibrary: typeof import('@faker-js/faker') | undefined;

/**
 * Loads faker (about a quarter of a second) only when rows are generated: an ordinary start, whose
 * tenants already have their applications, never pays for it.
 */
export async function loadFaker(): Promise<void> {
  fakerLibrary ??= await import('@faker-js/faker');
}

const newFaker = (seed: number[]) => {
  if (!fakerLibrary) throw new Error('Call loadFaker() before generating applications.');
  const { Faker, en_AU, en, base } = fakerLibrary;
  const faker = new Faker({ locale: [en_AU, en, base] });
  faker.seed(seed);
  return faker;
};

/** Each tenant draws from its own sequence (and its owners get their own ids). */
const tenantSeedOf = (tenantId: string) => [...tenantId].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7);

/** Rows [from, to) of the tenant's deterministic sequence. */
export function* generateApplications(context: SeedContext, seed: number, from: number, to: number): Generator<SeedRow> {
  const tenantSeed = tenantSeedOf(context.tenantId);
  for (let block = Math.floor(from / blockSize); block * blockSize < to; block++) {
    const faker = newFaker([seed, tenantSeed, block]);
    for (let index = block * blockSize; index < Math.min(to, (block + 1) * blockSize); index++) {
      const row = generateRow(faker, context);
      if (index >= from) yield row;
    }
  }
}

/** COPY text format: tab-separated, NULL as \N, backslash escapes. */
const copyField = (value: string | number | null) =>
  value === null ? '\\N' : String(value).replace(/[\\\t\n\r]/g, (char) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[char] ?? char);

/** Catalogue, owners and user visibility of a tenant: what the generated rows refer to. Idempotent. */
export async function ensureApplicationCatalogue(db: Database, tenantId: string, seed = 42): Promise<SeedContext> {
  const [tenant] = await db.select().from(tenants).where(eq(tenants.id, tenantId));
  if (!tenant) throw new Error(`Unknown tenant ${tenantId}`);
  await loadFaker();
  const faker = newFaker([seed, tenantSeedOf(tenantId), 1]);
  const brandPrefix = tenant.name.split(' ')[0] ?? tenant.name;

  await db
    .insert(subBrands)
    .values(subBrandSuffixes.map((suffix) => ({ tenantId, name: `${brandPrefix} ${suffix}` })))
    .onConflictDoNothing();
  await db
    .insert(products)
    .values(seedProducts.map((product, index) => ({ tenantId, ...product, sortOrder: index })))
    .onConflictDoNothing();
  await db
    .insert(applicationLabels)
    .values([
      ...seedLabels.map((name) => ({ tenantId, kind: 'label', name })),
      ...seedSystemLabels.map((name) => ({ tenantId, kind: 'system', name })),
    ])
    .onConflictDoNothing();

  const staff = await db.select().from(users).where(eq(users.tenantId, tenantId)).orderBy(asc(users.email));
  await db
    .insert(userVisibility)
    .values(
      staff.map((user, index) => ({
        userId: user.id,
        tenantId,
        locations: [seedLocations[index % seedLocations.length] ?? 'Sydney'],
        restrictionGroups: [seedRestrictionGroups[index % seedRestrictionGroups.length] ?? 'Retail'],
      })),
    )
    .onConflictDoNothing();

  // Advisers who are not portal users, and every portal user as an owner of their own applications.
  const advisers = Array.from({ length: 40 }, () => {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    return {
      id: faker.string.uuid(),
      tenantId,
      globalUserId: faker.string.uuid(),
      displayName: `${first} ${last}`,
      email: `${first}.${last}@advisers.example.com`.toLowerCase().replace(/[^a-z.@]/g, ''),
      location: faker.helpers.arrayElement(seedLocations),
    };
  });
  const staffOwners = staff.map((user, index) => ({
    id: faker.string.uuid(),
    tenantId,
    globalUserId: user.id,
    displayName: `${user.firstName} ${user.lastName}`.trim(),
    email: user.email,
    location: seedLocations[index % seedLocations.length] ?? 'Sydney',
  }));
  await db.insert(applicationOwners).values([...advisers, ...staffOwners]).onConflictDoNothing();

  const owners = await db.select().from(applicationOwners).where(eq(applicationOwners.tenantId, tenantId)).orderBy(asc(applicationOwners.displayName));
  const staffIds = new Set(staff.map((user) => user.id));
  return {
    tenantId,
    tenantName: tenant.name,
    subBrands: subBrandSuffixes.map((suffix) => `${brandPrefix} ${suffix}`),
    // Portal users own a small share each, so My Apps has something in it without dwarfing All Apps.
    owners: owners.map((owner) => ({
      id: owner.id,
      displayName: owner.displayName,
      location: owner.location,
      weight: staffIds.has(owner.globalUserId) ? 0.6 : 1,
    })),
    assignees: staff
      .filter((user) => user.status === 'Active')
      .map((user) => ({ id: user.id, displayName: `${user.firstName} ${user.lastName}`.trim() })),
  };
}

export interface SeedApplicationsOptions {
  tenantId: string;
  /** The number of applications the tenant should have; only the missing ones are added. */
  total: number;
  seed?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface SeedApplicationsResult {
  added: number;
  generateMs: number;
  loadMs: number;
  /** Generating and loading the applications' detail records (application-detail-seed.ts). */
  detailMs: number;
  indexMs: number;
}

async function staffNamesOf(db: Database, tenantId: string) {
  const staff = await db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.tenantId, tenantId)).orderBy(asc(users.email));
  return staff.map((user) => `${user.firstName} ${user.lastName}`.trim());
}

const bulkThreshold = 50_000;

/**
 * Tops the tenant up to `total` applications. Large loads drop the list and search indexes and the
 * foreign keys of `applications` and switch off its product-names trigger, COPY the rows (PGlite)
 * or insert them in big batches (PostgreSQL), then rebuild the indexes once and re-validate the
 * keys in one pass: far faster than maintaining 30 indexes row by row. The index definitions are
 * read back from the catalog, so the migrations stay the single source of them.
 */
export async function seedApplications(db: Database, options: SeedApplicationsOptions): Promise<SeedApplicationsResult> {
  const { tenantId, total, seed = 42, onProgress } = options;
  const result: SeedApplicationsResult = { added: 0, generateMs: 0, loadMs: 0, detailMs: 0, indexMs: 0 };
  const [existing] = await db.select({ n: count() }).from(applications).where(eq(applications.tenantId, tenantId));
  const from = existing?.n ?? 0;
  const staffNames = await staffNamesOf(db, tenantId);
  // Applications seeded before the detail tables existed get their records first.
  if (from > 0) {
    const started = performance.now();
    await backfillDetails(db, tenantId, staffNames, seedAnchor.getTime());
    result.detailMs += performance.now() - started;
  }
  if (from >= total) return result;
  const context = await ensureApplicationCatalogue(db, tenantId, seed);
  const runner = sqlRunner(db);
  const bulk = total - from >= bulkThreshold;

  let restore: string[] = [];
  if (bulk) {
    const rows = await runner.textRows(
      `select 'drop index ' || quote_ident(indexname), indexdef from pg_indexes
         where schemaname = current_schema() and tablename = any($1::text[])
           and indexname not in (select conname from pg_constraint where conrelid = any($1::regclass[]))
       union all
       select 'alter table ' || conrelid::regclass::text || ' drop constraint ' || quote_ident(conname),
              'alter table ' || conrelid::regclass::text || ' add constraint ' || quote_ident(conname) || ' ' || pg_get_constraintdef(oid)
         from pg_constraint where conrelid = any($1::regclass[]) and contype = 'f'`,
      [`{${['applications', 'application_search', 'application_activity', ...detailTables].join(',')}}`],
    );
    for (const [drop] of rows) if (drop) await db.execute(sql.raw(drop));
    restore = rows.flatMap(([, create]) => (create ? [create] : []));
    // The rows carry their product names already, and COPY loads row by row while a row trigger is on.
    await db.execute(sql.raw('alter table applications disable trigger applications_product_names'));
    restore.push('alter table applications enable trigger applications_product_names');
  }

  try {
    const batch = runner.kind === 'pglite' ? 25_000 : 10_000;
    let rows: SeedRow[] = [];
    const flush = async () => {
      if (rows.length === 0) return;
      const started = performance.now();
      const [maxBefore] = await runner.textRows('select coalesce(max(id), 0)::text from applications', []);
      if (runner.kind === 'pglite') {
        const text = rows.map((row) => seedColumns.map((column) => copyField(row[column])).join('\t')).join('\n');
        await copyIntoApplications(db, text);
      } else {
        await insertByUnnest(db, rows);
      }
      result.loadMs += performance.now() - started;
      const detailStarted = performance.now();
      // The rows' ids, by guid: one walk of the primary key from where the table ended.
      const ids = new Map((await runner.textRows('select guid::text, id::text from applications where id > $1', [maxBefore?.[0] ?? '0'])).map(([guid, id]) => [guid, Number(id)]));
      const lines = emptyDetailLines();
      for (const row of rows) {
        const id = ids.get(String(row.guid));
        if (id === undefined) continue;
        generateDetail(
          {
            id,
            tenantId,
            guid: String(row.guid),
            status: String(row.status),
            clientName: String(row.client_name),
            primaryEmail: String(row.primary_email),
            applicationType: String(row.application_type),
            adviserName: String(row.adviser_name),
            dateCreated: Date.parse(String(row.date_created)),
            dateCompleted: row.date_completed === null ? null : Date.parse(String(row.date_completed)),
            documentCount: Number(row.document_count),
            userUploadCount: Number(row.user_upload_count),
          },
          staffNames,
          lines,
          seedAnchor.getTime(),
        );
      }
      await loadDetailLines(db, lines);
      result.detailMs += performance.now() - detailStarted;
      result.added += rows.length;
      onProgress?.(from + result.added, total);
      rows = [];
    };
    let generateStarted = performance.now();
    for (const row of generateApplications(context, seed, from, total)) {
      rows.push(row);
      if (rows.length >= batch) {
        result.generateMs += performance.now() - generateStarted;
        await flush();
        generateStarted = performance.now();
      }
    }
    result.generateMs += performance.now() - generateStarted;
    await flush();
  } finally {
    const started = performance.now();
    if (restore.length > 0) await db.execute(sql.raw(`set maintenance_work_mem = '256MB'`));
    for (const statement of restore) await db.execute(sql.raw(statement));
    result.indexMs = performance.now() - started;
  }
  // Index-only scans need the visibility map, and the planner needs statistics.
  await db.execute(sql.raw(`vacuum (analyze) applications, application_search, application_activity, ${detailTables.join(', ')}`));
  return result;
}

/** PostgreSQL type of each seeded column, for the unnest insert. */
const seedColumnTypes: Record<(typeof seedColumns)[number], string> = {
  guid: 'uuid',
  tenant_id: 'text',
  status: 'text',
  account_name: 'text',
  client_name: 'text',
  primary_email: 'text',
  external_id: 'text',
  account_number: 'text',
  sub_brand_name: 'text',
  product_codes: 'text[]',
  product_names: 'text',
  label: 'text',
  system_label: 'text',
  assignee_user_id: 'uuid',
  assignee_display_name: 'text',
  owner_id: 'uuid',
  adviser_name: 'text',
  location: 'text',
  restriction_group: 'text',
  date_created: 'timestamptz',
  date_completed: 'timestamptz',
  last_document_upload: 'timestamptz',
  application_type: 'text',
  short_application_type: 'text',
  promo_code: 'text',
  investment_amount: 'numeric',
  language: 'text',
  low_doc_status: 'text',
  document_count: 'integer',
  user_upload_count: 'integer',
  application_mode_code: 'text',
  percentage_complete: 'integer',
  last_section: 'text',
};

/**
 * PostgreSQL without COPY support in node-postgres: one statement per batch, each column one array
 * parameter, unnested back into rows (31 parameters whatever the batch size).
 */
async function insertByUnnest(db: Database, rows: readonly SeedRow[]) {
  const params = seedColumns.map((column) => rows.map((row) => (row[column] === null ? null : String(row[column]))));
  const select = seedColumns.map((column, index) => `u.c${index}::${seedColumnTypes[column]}`).join(', ');
  const unnest = seedColumns.map((_, index) => `$${index + 1}::text[]`).join(', ');
  const aliases = seedColumns.map((_, index) => `c${index}`).join(', ');
  await sqlRunner(db).textRows(
    `insert into applications (${seedColumns.join(', ')}) select ${select} from unnest(${unnest}) as u(${aliases})`,
    params.map((values) => pgArrayWithNulls(values)),
  );
}

/** PostgreSQL array text for values that may be NULL. */
const pgArrayWithNulls = (values: readonly (string | null)[]) =>
  `{${values.map((value) => (value === null ? 'NULL' : `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`)).join(',')}}`;

async function copyIntoApplications(db: Database, text: string) {
  const client: unknown = Reflect.get(db, '$client');
  if (typeof client !== 'object' || client === null || !('query' in client) || typeof client.query !== 'function') {
    throw new Error('COPY needs the PGlite client.');
  }
  await client.query(`copy applications (${seedColumns.join(', ')}) from '/dev/blob'`, [], {
    blob: new Blob([`${text}\n`]),
  });
}

/** How many applications the demo start gives each tenant: a few thousand for demo, a few hundred for acme. */
export const demoApplicationCounts: Record<string, number> = { demo: 3_000, acme: 300 };

/** Called at the end of seedDemo: tops the demo tenants up; does nothing once they have their share. */
export async function seedDemoApplications(db: Database): Promise<void> {
  const override = process.env.SEED_DEMO_APPLICATIONS;
  for (const [tenantId, wanted] of Object.entries(demoApplicationCounts)) {
    const total = override ? Math.min(wanted, Number(override) || 0) : wanted;
    const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId));
    if (tenant) await seedApplications(db, { tenantId, total });
  }
}

/** Counts by tenant, for the seed command's report. */
export async function applicationCount(db: Database, tenantId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(applications).where(and(eq(applications.tenantId, tenantId)));
  return row?.n ?? 0;
}
