import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';
import { sampleDocuments } from '../storage/sample-documents.ts';
import { sqlRunner } from './sql-runner.ts';
import { depersonalisedActivity, removedComment } from './depersonalise-store.ts';

/**
 * The detail records of seeded applications (issue 12): applicants with their approvals and TFNs,
 * identification requirements, outstanding documents, exceptions, IP addresses, documents (rows
 * pointing at a few sample files), comments and activity. Each application's records come from a
 * small fast generator seeded by its guid, so they are the same whatever the batch, and a million
 * applications' worth costs seconds, not faker's minutes.
 */

/** What the generator needs of an application (a seeded row, or a stored one when back-filling). */
export interface DetailSource {
  id: number;
  tenantId: string;
  guid: string;
  status: string;
  clientName: string;
  primaryEmail: string;
  applicationType: string;
  adviserName: string;
  dateCreated: number;
  dateCompleted: number | null;
  documentCount: number;
  userUploadCount: number;
}

/** mulberry32: tiny and fast; seeded from the guid's hex digits. */
function randomFor(guid: string) {
  let state = Number.parseInt(guid.replaceAll('-', '').slice(0, 8), 16) ^ Number.parseInt(guid.replaceAll('-', '').slice(-8), 16);
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability: number) => next() < probability,
    pick: <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T,
    digits: (length: number) => Array.from({ length }, () => Math.floor(next() * 10)).join(''),
  };
}

/**
 * An id derived from the application's guid: unique across applications (the PRNG's 32-bit state
 * is not) and the same on every run. `tag` keeps applicants' and documents' ids apart.
 */
const derivedId = (guid: string, tag: 'a' | 'd', n: number) => `${guid.slice(0, 9)}${tag}${n.toString(16).padStart(3, '0')}${guid.slice(13)}`;

const firstNames = ['Olivia', 'Jack', 'Charlotte', 'William', 'Amelia', 'Noah', 'Isla', 'Thomas', 'Mia', 'James', 'Grace', 'Lucas', 'Chloe', 'Henry', 'Zoe', 'Oliver'];
const lastNames = ['Nguyen', 'Smith', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Martin', 'Anderson', 'Thompson', 'White', 'Kelly', 'Walker', 'Harris', 'Lee', 'Ryan', 'Robinson'];
const streets = ['George Street', 'Collins Street', 'Queen Street', 'Hay Street', 'King William Street', 'Elizabeth Street', 'Victoria Road', 'Beach Road'];
const places = ['Sydney NSW 2000', 'Melbourne VIC 3000', 'Brisbane QLD 4000', 'Perth WA 6000', 'Adelaide SA 5000', 'Hobart TAS 7000', 'Parramatta NSW 2150', 'Geelong VIC 3220'];
const isps = ['Telstra', 'Optus', 'TPG Internet', 'Aussie Broadband', 'iiNet', 'Vodafone Australia'];
const vpnIsps = ['NordVPN', 'Mullvad VPN', 'ExpressVPN', 'M247 Ltd'];
/** The two names the spec maps (AM §8) and names it does not, which the portal shows as plain text. */
export const seedViolationNames = ['CALIFORNIARESIDENT', 'BANKACCOUNTNAMEMATCH', 'DUPLICATEAPPLICATION', 'UNDERAGEAPPLICANT'];
const commentTexts = [
  'Called the client to confirm the investment amount.',
  'Waiting on a certified copy of the passport.',
  'Client asked for the application to be put on hold until next week.',
  'Spoke with the adviser; documents to follow.',
  'Bank account name differs from the applicant name: confirmed it is a joint account.',
  'Checked the address against the utility bill.',
];
const failedAction =
  '<p>We could not verify this person electronically. Please provide a certified copy of a <strong>driver licence</strong> or <strong>passport</strong>.</p>';
const outstanding = [
  ['Certified identification', '<p>Upload a certified copy of photo identification for each applicant.</p>'],
  ['Proof of address', '<p>A utility bill or bank statement from the last <strong>3 months</strong>.</p>'],
  ['Trust deed', '<p>The first and last pages of the trust deed, and any amendments.</p>'],
] as const;

/** One COPY line per record, per table. */
export interface DetailLines {
  applicants: string[];
  requirements: string[];
  outstanding: string[];
  violations: string[];
  ips: string[];
  documents: string[];
  comments: string[];
  activity: string[];
}

/** Columns of each table, in COPY order. */
export const detailColumns: Record<keyof DetailLines, { table: string; columns: string[]; types: string[] }> = {
  applicants: {
    table: 'application_applicants',
    columns: ['id', 'application_id', 'position', 'first_name', 'last_name', 'phone', 'email', 'date_of_birth', 'address', 'tfn', 'approval_status', 'is_mfa_locked', 'approval_updated_at', 'send_email'],
    types: ['uuid', 'bigint', 'integer', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'boolean', 'timestamptz', 'boolean'],
  },
  requirements: {
    table: 'application_requirements',
    columns: ['application_id', 'entity_guid', 'name', 'result', 'result_text', 'action_required', 'eligible_for_reverification', 'eligible_for_new_verification', 'eligible_for_sanctions_verification'],
    types: ['bigint', 'uuid', 'text', 'integer', 'text', 'text', 'boolean', 'boolean', 'boolean'],
  },
  outstanding: { table: 'application_outstanding_documents', columns: ['application_id', 'name', 'action_required'], types: ['bigint', 'text', 'text'] },
  violations: { table: 'application_violations', columns: ['application_id', 'name', 'occurred_at'], types: ['bigint', 'text', 'timestamptz'] },
  ips: {
    table: 'application_ips',
    columns: ['application_id', 'applicant_name', 'ip', 'isp_name', 'is_vpn', 'event_at'],
    types: ['bigint', 'text', 'text', 'text', 'boolean', 'timestamptz'],
  },
  documents: {
    table: 'application_documents',
    columns: ['public_id', 'application_id', 'friendly_name', 'original_file_name', 'content_type', 'size', 'storage_key', 'uploaded_at'],
    types: ['uuid', 'bigint', 'text', 'text', 'text', 'bigint', 'text', 'timestamptz'],
  },
  comments: {
    table: 'application_comments',
    columns: ['application_id', 'user_display_name', 'comment', 'created_at'],
    types: ['bigint', 'text', 'text', 'timestamptz'],
  },
  activity: { table: 'application_activity', columns: ['tenant_id', 'application_id', 'activity', 'created_at'], types: ['text', 'bigint', 'text', 'timestamptz'] },
};

export const emptyDetailLines = (): DetailLines => ({ applicants: [], requirements: [], outstanding: [], violations: [], ips: [], documents: [], comments: [], activity: [] });

const copyField = (value: string | number | boolean | null) =>
  value === null ? '\\N' : String(value).replace(/[\\\t\n\r]/g, (char) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[char] ?? char);
const line = (values: readonly (string | number | boolean | null)[]) => values.map(copyField).join('\t');
const iso = (ms: number) => new Date(ms).toISOString();

const sampleSizes = new Map(sampleDocuments.map((sample) => [sample.key, sample.bytes().length]));
const systemSamples = sampleDocuments.filter((sample) => sample.friendlyName !== 'User upload');
const uploadSamples = sampleDocuments.filter((sample) => sample.friendlyName === 'User upload');

/** Appends one application's records to `out`. */
export function generateDetail(app: DetailSource, staffNames: readonly string[], out: DetailLines, now: number): void {
  const random = randomFor(app.guid);
  const depersonalised = app.status === 'Depersonalised';
  const complete = app.dateCompleted !== null;
  const end = app.dateCompleted ?? now;
  const during = () => Math.floor(app.dateCreated + random.next() * Math.max(0, end - app.dateCreated));
  const people = app.applicationType === 'Individual' ? 1 : app.applicationType === 'Joint' ? 2 : random.int(1, 3);
  const [primaryFirst = '', ...primaryRest] = app.clientName.split(' ');
  const names: string[] = [];

  for (let position = 0; position < people; position++) {
    const id = derivedId(app.guid, 'a', position);
    const first = position === 0 && primaryFirst ? primaryFirst : random.pick(firstNames);
    const last = position === 0 && primaryRest.length > 0 ? primaryRest.join(' ') : random.pick(lastNames);
    const name = depersonalised ? 'Depersonalised' : `${first} ${last}`;
    names.push(name);
    const email = depersonalised ? '' : position === 0 && app.primaryEmail ? app.primaryEmail : `${first}.${last}@example.com`.toLowerCase().replace(/[^a-z.@]/g, '');
    const dob = `${random.int(1940, 2004)}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`;
    const address = `${random.int(1, 400)} ${random.pick(streets)}, ${random.pick(places)}`;
    const tfn = !depersonalised && random.chance(0.7) ? random.digits(9) : '';
    // Approval: everyone approved once complete; part-way through a review some have, a few declined.
    const asked = complete || ['Primary submit', 'Secondary review', 'Documents pending', 'Locked'].includes(app.status);
    const approval = complete ? 'Approved' : asked ? random.pick(['Approved', 'Approved', 'Pending', 'Declined']) : '';
    const mfaLocked = !depersonalised && (app.status === 'Locked' ? position === 0 : !complete && random.chance(0.03));
    out.applicants.push(
      line([
        id,
        app.id,
        position,
        depersonalised ? 'Depersonalised' : first,
        depersonalised ? '' : last,
        depersonalised ? '' : `04${random.digits(2)} ${random.digits(3)} ${random.digits(3)}`,
        email,
        depersonalised ? '' : dob,
        depersonalised ? '' : address,
        tfn,
        approval,
        mfaLocked,
        approval ? iso(complete ? end : during()) : null,
        random.chance(0.9),
      ]),
    );
    // One identification requirement per person; failures are eligible for the three verification modes in turn.
    const passed = complete || random.chance(0.65);
    const mode = random.int(0, 2);
    out.requirements.push(
      line([
        app.id,
        id,
        `${name} - Identification`,
        passed ? 0 : random.pick([1, 2]),
        passed ? 'Verified' : random.pick(['Not verified', 'Partially verified', 'Referred for manual review']),
        passed ? '' : failedAction,
        !passed && mode === 0,
        !passed && (mode === 1 || random.chance(0.3)),
        mode === 2 || random.chance(0.2),
      ]),
    );
    if (!passed && !complete) {
      const [label, action] = random.pick(outstanding);
      out.outstanding.push(line([app.id, `${label} (${name})`, action]));
    }
    for (let visit = random.int(position === 0 ? 1 : 0, 2); visit > 0; visit--) {
      const vpn = random.chance(0.08);
      // Depersonalising keeps the ISP and the VPN verdict, not the address (depersonalise-store.ts); drawn either way, so the rest stays as it was.
      const ip = `203.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(1, 254)}`;
      out.ips.push(
        line([app.id, name, depersonalised ? '' : ip, vpn ? random.pick(vpnIsps) : random.pick(isps), vpn, iso(during())]),
      );
    }
  }

  if (random.chance(0.22)) {
    for (let count = random.int(1, 2); count > 0; count--) out.violations.push(line([app.id, random.pick(seedViolationNames), iso(during())]));
  }

  // Depersonalising removes the documents (ARCHITECTURE §5); the others point at the sample files.
  if (!depersonalised) {
    for (let index = 0; index < app.documentCount; index++) {
      const upload = index >= app.documentCount - app.userUploadCount;
      const sample = upload ? random.pick(uploadSamples) : random.pick(systemSamples);
      if (!sample) continue;
      out.documents.push(
        line([derivedId(app.guid, 'd', index), app.id, sample.friendlyName, sample.fileName, sample.contentType, sampleSizes.get(sample.key) ?? 0, sample.key, iso(during())]),
      );
    }
  }

  if (staffNames.length > 0 && random.chance(0.3)) {
    for (let count = random.int(1, 3); count > 0; count--) {
      const author = random.pick(staffNames);
      const text = random.pick(commentTexts);
      out.comments.push(line([app.id, author, depersonalised ? removedComment : text, iso(during())]));
    }
  }

  out.activity.push(line([app.tenantId, app.id, `Application created by ${app.adviserName}`, iso(app.dateCreated)]));
  if (app.status !== 'Adviser edit') out.activity.push(line([app.tenantId, app.id, 'Application sent to the client', iso(during())]));
  if (complete) out.activity.push(line([app.tenantId, app.id, 'Application completed', iso(end)]));
  if (depersonalised) out.activity.push(line([app.tenantId, app.id, depersonalisedActivity(app.adviserName), iso(end)]));
}

/** Loads the lines: COPY on PGlite, one unnest insert per table on PostgreSQL. */
export async function loadDetailLines(db: Database, lines: DetailLines): Promise<void> {
  const client: unknown = Reflect.get(db, '$client');
  const runner = sqlRunner(db);
  for (const [name, spec] of Object.entries(detailColumns) as [keyof DetailLines, (typeof detailColumns)[keyof DetailLines]][]) {
    const rows = lines[name];
    if (rows.length === 0) continue;
    if (runner.kind === 'pglite' && typeof client === 'object' && client !== null && 'query' in client && typeof client.query === 'function') {
      await client.query(`copy ${spec.table} (${spec.columns.join(', ')}) from '/dev/blob'`, [], { blob: new Blob([`${rows.join('\n')}\n`]) });
      continue;
    }
    // PostgreSQL: each column as one text[] parameter, unnested back into rows.
    const columns = spec.columns.map((_, index) => rows.map((row) => unescapeField(row.split('\t')[index] ?? '')));
    const select = spec.types.map((type, index) => `u.c${index}::${type}`).join(', ');
    const unnest = spec.columns.map((_, index) => `$${index + 1}::text[]`).join(', ');
    await runner.textRows(
      `insert into ${spec.table} (${spec.columns.join(', ')}) select ${select} from unnest(${unnest}) as u(${spec.columns.map((_, index) => `c${index}`).join(', ')})`,
      columns.map(pgArrayWithNulls),
    );
  }
}

const unescapeField = (field: string): string | null =>
  field === '\\N' ? null : field.replace(/\\([\\tnr])/g, (_, char: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[char] ?? char);
const pgArrayWithNulls = (values: readonly (string | null)[]) =>
  `{${values.map((value) => (value === null ? 'NULL' : `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`)).join(',')}}`;

/** The detail tables, for the bulk seed's drop-and-rebuild of indexes and foreign keys. */
export const detailTables = Object.values(detailColumns)
  .map((spec) => spec.table)
  .filter((table) => table !== 'application_activity');

/**
 * Gives the tenant's applications without any applicant their detail records (databases seeded
 * before migration 0006). Cheap when there is nothing to do: one probe for any applicant of the tenant.
 */
export async function backfillDetails(db: Database, tenantId: string, staffNames: readonly string[], now: number): Promise<number> {
  const runner = sqlRunner(db);
  const [probe] = await runner.textRows(
    `select exists (select 1 from applications a where a.tenant_id = $1 and not exists (select 1 from application_applicants i where i.application_id = a.id) limit 1)::text`,
    [tenantId],
  );
  if (probe?.[0] !== 'true') return 0;
  let done = 0;
  let after = 0;
  for (;;) {
    const rows = await runner.textRows(
      `select a.id::text, a.guid::text, a.status, a.client_name, a.primary_email, a.application_type, a.adviser_name,
              (extract(epoch from a.date_created) * 1000)::bigint::text, (extract(epoch from a.date_completed) * 1000)::bigint::text,
              a.document_count::text, a.user_upload_count::text
         from applications a
        where a.tenant_id = $1 and a.id > $2 and not exists (select 1 from application_applicants i where i.application_id = a.id)
        order by a.id limit 20000`,
      [tenantId, after],
    );
    if (rows.length === 0) break;
    const lines = emptyDetailLines();
    for (const row of rows) {
      const [id, guid, status, clientName, primaryEmail, applicationType, adviserName, created, completed, documents, uploads] = row;
      generateDetail(
        {
          id: Number(id),
          tenantId,
          guid: guid ?? '',
          status: status ?? '',
          clientName: clientName ?? '',
          primaryEmail: primaryEmail ?? '',
          applicationType: applicationType ?? '',
          adviserName: adviserName ?? '',
          dateCreated: Number(created),
          dateCompleted: completed === null || completed === undefined ? null : Number(completed),
          documentCount: Number(documents),
          userUploadCount: Number(uploads),
        },
        staffNames,
        lines,
        now,
      );
    }
    await loadDetailLines(db, lines);
    done += rows.length;
    after = Number(rows[rows.length - 1]?.[0]);
  }
  await db.execute(sql.raw(`analyze ${detailTables.join(', ')}`));
  return done;
}
