import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer, userWith } from './harness.ts';
import { pdfText } from './pdf-text.ts';
import { outbox, verifications } from '../../server/db/schema.ts';
import { verificationAudit } from '../../server/db/verifications-store.ts';
import {
  CompanyListResponseSchema,
  FormDefinitionResponseSchema,
  IndividualListResponseSchema,
  VerificationDetailSchema,
  VerifyResponseSchema,
} from '../../src/schemas/verifications.schema.ts';
import { biometricVerifyRequest, individualVerifyRequest, isValidAcn } from '../../src/domain/verifications.ts';
import { fileNameFromDisposition } from '../../src/domain/content-disposition.ts';
import { companyNotFoundMessage } from '../../server/api/verifications.routes.ts';
import { biometricCompleteLabel, biometricDoneText, biometricUsedText } from '../../server/api/biometric-sandbox.routes.ts';
import { sampleSanctionsList } from '../../server/providers/identity-verification/sandbox-identity-verification.ts';
import { demoVerificationCount } from '../../server/db/verifications-seed.ts';
import { findCompany } from '../../server/providers/company-registry/company-registry.ts';
import { createSandboxCompanyRegistry } from '../../server/providers/company-registry/sandbox-company-registry.ts';

/**
 * Issue 29 server: every /entity-verification/api/v1 route's 401, 403 per claim, cross-tenant 404
 * and 400; the ACN rule; company found / not found and its report; both verify request mappings;
 * the biometric invite through the outbox; reference codes searched; reports read back.
 */
let server: TestServer;
let admin: string;
let acme: string;
const base = '/entity-verification/api/v1';
const access = 'entityverification.access';
const company = 'entityverification.company';
const individual = 'entityverification.individual';

beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
  acme = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
});
afterAll(() => server.close());

const passForm = {
  IndividualDetails: { FirstName: 'Olivia', MiddleName: 'Jane', LastName: 'Nguyen', DateOfBirth: '1980-04-23', Country: 'AU', Reference: 'case 7' },
  IndividualDetailsAddress: { UnitNumber: '2', StreetNumber: '10', StreetName: 'George', StreetType: 'Street', Suburb: 'Sydney', State: 'NSW', Postcode: '2000' },
  IDDocuments: { DocumentType: 'PassportDetails', PassportDetails: { PassportNumber: 'PA1234567', CountryOfIssue: 'AUS' } },
};

const oneOfEach = async () => {
  const [companyRecord] = await server.db.select().from(verifications).where(and(eq(verifications.tenantId, 'demo'), eq(verifications.kind, 'company'), eq(verifications.status, 'Complete'))).limit(1);
  const [individualRecord] = await server.db
    .select()
    .from(verifications)
    .where(and(eq(verifications.tenantId, 'demo'), eq(verifications.kind, 'individual'), eq(verifications.status, 'Complete')))
    .limit(1);
  const [acmeRecord] = await server.db.select().from(verifications).where(and(eq(verifications.tenantId, 'acme'), eq(verifications.kind, 'individual'), eq(verifications.status, 'Complete'))).limit(1);
  return { company: companyRecord!, individual: individualRecord!, acme: acmeRecord! };
};

describe('the ACN check digit (ASIC: weights 8…1, check = (10 − sum mod 10) mod 10)', () => {
  // ASIC's published examples.
  const published = ['000000019', '000250000', '000500005', '000750005', '001000004', '001250004', '001500009', '001749999', '001999999', '002249998'];
  it('accepts the published ACNs', () => {
    for (const acn of published) expect(isValidAcn(acn), acn).toBe(true);
  });
  it('refuses each with its check digit or one other digit altered', () => {
    for (const acn of published) {
      const check = Number(acn[8]);
      expect(isValidAcn(`${acn.slice(0, 8)}${(check + 1) % 10}`), acn).toBe(false);
      const first = Number(acn[0]);
      expect(isValidAcn(`${(first + 1) % 10}${acn.slice(1)}`), acn).toBe(false);
    }
    expect(isValidAcn('00000001')).toBe(false);
    expect(isValidAcn('00000001a')).toBe(false);
  });
});

describe('the registry is asked only about ACNs that can exist', () => {
  it('an ACN failing its check digit is not found without a lookup; a valid one is looked up', async () => {
    const registry = createSandboxCompanyRegistry();
    expect(await findCompany(registry, '000000018')).toBeUndefined();
    expect(registry.lookups).toBe(0);
    expect(await findCompany(registry, '000000019')).toEqual({ companyNumber: '000000019', companyName: 'HARBOURSIDE HOLDINGS PTY LTD' });
    expect(await findCompany(registry, '001999999')).toBeUndefined();
    expect(registry.lookups).toBe(2);
  });
});

describe('access', () => {
  it('401 without a token on every route', async () => {
    for (const [method, url] of [
      ['GET', `${base}/Company`],
      ['POST', `${base}/company/verify`],
      ['POST', `${base}/company/generate-report`],
      ['POST', `${base}/individual/1/ref-code`],
      ['GET', `${base}/individual/form`],
      ['GET', `${base}/individual/details?verificationType=IndividualVerification`],
      ['POST', `${base}/individual/verify`],
      ['GET', `${base}/individual/verifications/details/1`],
      ['GET', `${base}/individual/1/report`],
    ] as const) {
      expect((await api(server, method, url, { body: method === 'POST' ? {} : undefined })).statusCode, url).toBe(401);
    }
  });

  it('403 naming the missing claim: access, then the kind', async () => {
    const { token: noAccess } = await userWith(server, 'ev-noaccess@demo.test', [company, individual]);
    const noAccessList = await api(server, 'GET', `${base}/Company`, { token: noAccess });
    expect(noAccessList.statusCode).toBe(403);
    expect(noAccessList.json().message).toBe(`Requires the ${access} claim.`);

    const { token: companyOnly } = await userWith(server, 'ev-company@demo.test', [access, company]);
    const { token: individualOnly } = await userWith(server, 'ev-individual@demo.test', [access, individual]);
    const records = await oneOfEach();
    const refusals = [
      [companyOnly, 'GET', `${base}/Individual`, undefined, individual],
      [companyOnly, 'GET', `${base}/individual/form`, undefined, individual],
      [companyOnly, 'GET', `${base}/individual/details?verificationType=BiometricVerification`, undefined, individual],
      [companyOnly, 'POST', `${base}/individual/verify`, individualVerifyRequest(passForm), individual],
      [companyOnly, 'POST', `${base}/individual/${records.individual.id}/ref-code`, { ref_code: 'x' }, individual],
      [companyOnly, 'GET', `${base}/individual/verifications/details/${records.individual.id}`, undefined, individual],
      [companyOnly, 'GET', `${base}/individual/${records.individual.id}/report`, undefined, individual],
      [individualOnly, 'GET', `${base}/Company`, undefined, company],
      [individualOnly, 'POST', `${base}/company/verify`, { CompanyNumber: '000000019' }, company],
      [individualOnly, 'POST', `${base}/company/generate-report`, { company_number: '000000019', company_name: 'x' }, company],
      [individualOnly, 'POST', `${base}/company/${records.company.id}/ref-code`, { ref_code: 'x' }, company],
      [individualOnly, 'GET', `${base}/company/${records.company.id}/report`, undefined, company],
    ] as const;
    for (const [token, method, url, body, claim] of refusals) {
      const response = await api(server, method, url, { token, body });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().message, url).toBe(`Requires the ${claim} claim.`);
    }
  });

  it('404 for another tenant’s record: detail, report and ref-code', async () => {
    const records = await oneOfEach();
    expect((await api(server, 'GET', `${base}/individual/verifications/details/${records.acme.id}`, { token: admin })).statusCode).toBe(404);
    expect((await api(server, 'GET', `${base}/individual/${records.acme.id}/report`, { token: admin })).statusCode).toBe(404);
    expect((await api(server, 'POST', `${base}/individual/${records.acme.id}/ref-code`, { token: admin, body: { ref_code: 'mine' } })).statusCode).toBe(404);
    const [unchanged] = await server.db.select().from(verifications).where(eq(verifications.id, records.acme.id));
    expect(unchanged!.refCode).not.toBe('mine');
    // And the owner reads it.
    expect((await api(server, 'GET', `${base}/individual/${records.acme.id}/report`, { token: acme, host: hosts.acme })).statusCode).toBe(200);
  });

  it('400 naming the field', async () => {
    const cases = [
      ['GET', `${base}/Company?Page=0`, undefined, 'Page'],
      ['GET', `${base}/Partnership`, undefined, 'service'],
      ['POST', `${base}/company/verify`, { CompanyNumber: '12345' }, 'CompanyNumber'],
      ['POST', `${base}/company/generate-report`, { company_number: '000000019' }, 'company_name'],
      ['POST', `${base}/individual/abc/ref-code`, { ref_code: 'x' }, 'id'],
      ['POST', `${base}/individual/1/ref-code`, { ref_code: '\u202e' }, 'ref_code'],
      ['GET', `${base}/individual/details?verificationType=Other`, undefined, 'verificationType'],
      ['GET', `${base}/individual/verifications/details/V1`, undefined, 'id'],
    ] as const;
    for (const [method, url, body, field] of cases) {
      const response = await api(server, method, url, { token: admin, body });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toContain(field);
    }
  });
});

describe('list', () => {
  it('pages of 10, newest first, with the total; every seeded status and type present', async () => {
    const first = CompanyListResponseSchema.parse((await api(server, 'GET', `${base}/Company?Page=1`, { token: admin })).json());
    const second = CompanyListResponseSchema.parse((await api(server, 'GET', `${base}/Company?Page=2`, { token: admin })).json());
    expect(first.responses).toHaveLength(10);
    expect(first.totalCount).toBeGreaterThan(100);
    expect(first.responses[0]!.id).toMatch(/^C[0-9]+$/);
    expect(new Set([...first.responses, ...second.responses].map((row) => row.id)).size).toBe(20);
    const dates = [...first.responses, ...second.responses].map((row) => row.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const seeded = await server.db.select({ kind: verifications.kind, status: verifications.status, type: verifications.requestType }).from(verifications).where(eq(verifications.tenantId, 'demo'));
    expect(seeded.length).toBeGreaterThanOrEqual(demoVerificationCount);
    expect(new Set(seeded.map((row) => row.status))).toEqual(new Set(['Pending', 'Complete', 'Failed', 'Successful', 'pending', 'success', 'fail']));
    expect(new Set(seeded.map((row) => row.type))).toEqual(new Set(['Company', 'IndividualVerification', 'BiometricVerification']));
  });

  it('Pending rows carry no report link; individual rows their type', async () => {
    const [pending] = await server.db.select().from(verifications).where(and(eq(verifications.tenantId, 'demo'), eq(verifications.kind, 'individual'), eq(verifications.status, 'Pending'))).limit(1);
    const list = IndividualListResponseSchema.parse((await api(server, 'GET', `${base}/Individual?search=${encodeURIComponent(pending!.subjectName)}&Page=1`, { token: admin })).json());
    const row = list.responses.find((candidate) => candidate.id === `V${pending!.id}`);
    // Deep pages may hold it; the rule holds for every row in any case.
    for (const candidate of list.responses) expect(candidate.report_link === '').toBe(candidate.status.toLowerCase() === 'pending');
    if (row) expect(row.type).toBe('BiometricVerification');
  });

  it('a tenant sees only its own records', async () => {
    const demo = CompanyListResponseSchema.parse((await api(server, 'GET', `${base}/Company`, { token: admin })).json());
    const other = CompanyListResponseSchema.parse((await api(server, 'GET', `${base}/Company`, { token: acme, host: hosts.acme })).json());
    const acmeIds = (await server.db.select({ id: verifications.id }).from(verifications).where(eq(verifications.tenantId, 'acme'))).map((row) => `C${row.id}`);
    for (const row of demo.responses) expect(acmeIds).not.toContain(row.id);
    for (const row of other.responses) expect(acmeIds).toContain(row.id);
  });
});

describe('company', () => {
  it('found by a seeded ACN; a valid-but-unknown ACN and an ACN failing its check digit are not found', async () => {
    const found = await api(server, 'POST', `${base}/company/verify`, { token: admin, body: { CompanyNumber: '000000019' } });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({ companyNumber: '000000019', companyName: 'HARBOURSIDE HOLDINGS PTY LTD' });
    for (const acn of ['001999999', '000000018']) {
      const missing = await api(server, 'POST', `${base}/company/verify`, { token: admin, body: { CompanyNumber: acn } });
      expect(missing.statusCode, acn).toBe(404);
      expect(missing.json().message).toBe(companyNotFoundMessage);
    }
  });

  it('generates the registry report: a record, its audit entry, and a PDF whose text shows the extract', async () => {
    const response = await api(server, 'POST', `${base}/company/generate-report`, { token: admin, body: { company_number: '000250000', company_name: 'SOUTHERN CROSS LOGISTICS PTY LTD' } });
    expect(response.statusCode).toBe(200);
    const { reportLink } = response.json() as { reportLink: string };
    const id = Number(/\/company\/([0-9]+)\/report$/.exec(reportLink)?.[1]);
    await api(server, 'POST', `${base}/company/${id}/ref-code`, { token: admin, body: { ref_code: 'ACME-77' } });
    const download = await api(server, 'GET', reportLink, { token: admin });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(fileNameFromDisposition(String(download.headers['content-disposition']), 'VerificationReport.pdf')).toBe(`ASIC-extract-000250000-C${id}.pdf`);
    const { text } = await pdfText(download.rawPayload);
    const page = text.join('\n');
    for (const expected of ['SOUTHERN CROSS LOGISTICS PTY LTD', '000 250 000', '88 Collins Street, MELBOURNE VIC 3000', 'Registered', 'Olivia Grace MARTIN, appointed 23/11/2004', 'ORD Ordinary shares: 200 issued', 'PRF Preference shares', 'ACME-77', 'As at '])
      expect(page).toContain(expected);
    // Reproducible: the same record gives the same bytes.
    const again = await api(server, 'GET', reportLink, { token: admin });
    expect(Buffer.compare(again.rawPayload, download.rawPayload)).toBe(0);
    const audit = await verificationAudit(server.db, id);
    expect(audit.map((entry) => entry.activity)).toEqual([
      'Company registry report for ACN 000250000 generated by Avery Admin',
      'Reference code set to ACME-77 by Avery Admin',
    ]);
  });

  it('a registry that cannot produce the extract is a 5xx with only an id', async () => {
    const response = await api(server, 'POST', `${base}/company/generate-report`, { token: admin, body: { company_number: '002249998', company_name: 'UNAVAILABLE RECORDS PTY LTD' } });
    expect(response.statusCode).toBe(500);
    expect(response.json().message).toMatch(/^Something went wrong on our side/);
  });
});

describe('individual', () => {
  it('serves the step 1 and step 2 forms as JSON strings with their compiled validators', async () => {
    const step1 = FormDefinitionResponseSchema.parse((await api(server, 'GET', `${base}/individual/form`, { token: admin })).json());
    expect(JSON.parse(step1.jsonSchema).properties.VerficationType.enum).toEqual(['IndividualVerification', 'BiometricVerification']);
    const step2 = FormDefinitionResponseSchema.parse((await api(server, 'GET', `${base}/individual/details?verificationType=BiometricVerification`, { token: admin })).json());
    expect(Object.keys(JSON.parse(step2.jsonSchema).properties.IndividualDetails.properties)).toEqual(['FirstName', 'MiddleName', 'LastName', 'Reference', 'MobileNumber']);
    const module = await api(server, 'GET', step2.validatorModule);
    expect(module.statusCode).toBe(200);
    expect(module.headers['content-type']).toContain('text/javascript');
    expect(module.body).toContain('export default exports');
  });

  it('maps the IndividualVerification form field by field (SUV §3)', () => {
    expect(individualVerifyRequest({ ...passForm, IndividualDetails: { ...passForm.IndividualDetails, DateOfBirth: '1980-04-23T00:00:00.000Z' } })).toEqual({
      requestMetaData: { countryCode: 'AU', source: 'StandaloneVerification', verificationType: 'IndividualVerification', reference: 'case 7' },
      individual: {
        firstName: 'Olivia',
        middleName: 'Jane',
        lastName: 'Nguyen',
        dateOfBirth: '1980-04-23',
        gender: 'NOTSET',
        countryOfBirth: 'AU',
        address: { provider: 'manual_entry', unitNumber: '2', streetNumber: '10', streetName: 'George', streetType: 'Street', suburb: 'Sydney', state: 'NSW', postcode: '2000', countryCode: 'AU' },
      },
      passport: { number: 'PA1234567', countryCode: 'AUS' },
    });
    const licence = individualVerifyRequest({ ...passForm, IDDocuments: { DocumentType: 'DriversLicence', DriversLicence: { LicenceNumber: '12345678', CardNumber: 'AB12345678', State: 'QLD' }, PassportDetails: { PassportNumber: 'PA1' } } });
    expect(licence.driversLicence).toEqual({ Number: '12345678', cardNumber: 'AB12345678', stateCode: 'QLD' });
    expect(licence.passport).toBeUndefined();
    const medicare = individualVerifyRequest({
      ...passForm,
      IDDocuments: { DocumentType: 'MedicareDetails', MedicareDetails: { MedicareNumber: '2123456789', CardColour: 'Green', ExpiryDate: '2030-05', MiddleName: 'J', CardReferenceNumber: '1' } },
    });
    expect(medicare.medicareCard).toEqual({ cardNumber: '2123456789', cardColour: 'Green', expiryDate: '2030-05', middleName: 'J', referenceNumber: '1' });
  });

  it('maps the biometric form: country AU, the mobile without spaces', () => {
    expect(biometricVerifyRequest({ IndividualDetails: { FirstName: 'Ava', LastName: 'Lee', Reference: 'r1', MobileNumber: { PhoneNumber: '0412 345 678' } } })).toEqual({
      requestMetaData: { countryCode: 'AU', source: 'StandaloneVerification', verificationType: 'BiometricVerification', reference: 'r1' },
      individual: { firstName: 'Ava', lastName: 'Lee', contact: { mobileNumber: '0412345678' } },
    });
  });

  it('verifies to a pass, writes the record and its report', async () => {
    const response = await api(server, 'POST', `${base}/individual/verify`, { token: admin, body: individualVerifyRequest(passForm) });
    expect(response.statusCode).toBe(200);
    const result = VerifyResponseSchema.parse(response.json());
    expect(result).toMatchObject({ responseSucceeded: true, overallResult: 'success', provider: 'sandbox' });
    const id = Number(result.requestId.slice(1));
    expect(result.providerReference).toBe(`sandbox-V${id}`);
    const detail = VerificationDetailSchema.parse((await api(server, 'GET', `${base}/individual/verifications/details/${id}`, { token: admin })).json());
    expect(detail).toMatchObject({ applicationId: `V${id}`, applicantName: 'Olivia Jane Nguyen', requestStatus: 'Complete', requester: 'Avery Admin', requestType: 'IndividualVerification', referenceNumber: 'case 7', responseResult: 'success' });
    const { text } = await pdfText((await api(server, 'GET', result.reportLink, { token: admin })).rawPayload);
    for (const expected of ['Olivia Jane Nguyen', 'Pass', `V${id}`, 'case 7', 'AUS ******567']) expect(text.join('\n')).toContain(expected);
  });

  it('a name on the sanctions list is a sanctions result; surname Fail a failure', async () => {
    const [first, last] = sampleSanctionsList[0].split(' ');
    const sanctions = VerifyResponseSchema.parse(
      (await api(server, 'POST', `${base}/individual/verify`, { token: admin, body: individualVerifyRequest({ ...passForm, IndividualDetails: { ...passForm.IndividualDetails, FirstName: first, MiddleName: '', LastName: last } }) })).json(),
    );
    expect(sanctions.overallResult).toBe('sanctions');
    const fail = VerifyResponseSchema.parse(
      (await api(server, 'POST', `${base}/individual/verify`, { token: admin, body: individualVerifyRequest({ ...passForm, IndividualDetails: { ...passForm.IndividualDetails, LastName: 'Fail' } }) })).json(),
    );
    expect(fail.overallResult).toBe('fail');
    const [record] = await server.db.select().from(verifications).where(eq(verifications.id, Number(fail.requestId.slice(1))));
    expect(record!.status).toBe('Failed');
  });

  it('refuses a request the form schema refuses, naming the request field, before any record is written', async () => {
    const before = await server.db.select({ id: verifications.id }).from(verifications);
    const badPassport = individualVerifyRequest({ ...passForm, IDDocuments: { DocumentType: 'PassportDetails', PassportDetails: { PassportNumber: '123', CountryOfIssue: 'AUS' } } });
    const refused = await api(server, 'POST', `${base}/individual/verify`, { token: admin, body: badPassport });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('passport.number: does not have the expected shape');
    const noFirstName = individualVerifyRequest({ ...passForm, IndividualDetails: { ...passForm.IndividualDetails, FirstName: '' } });
    expect((await api(server, 'POST', `${base}/individual/verify`, { token: admin, body: noFirstName })).json().message).toBe('individual.firstName: is required');
    const noDocument = individualVerifyRequest({ ...passForm, IDDocuments: {} });
    expect((await api(server, 'POST', `${base}/individual/verify`, { token: admin, body: noDocument })).json().message).toBe('IDDocuments.DocumentType: is required');
    const badMobile = biometricVerifyRequest({ IndividualDetails: { FirstName: 'Ava', LastName: 'Lee', MobileNumber: { PhoneNumber: '0312345678' } } });
    expect((await api(server, 'POST', `${base}/individual/verify`, { token: admin, body: badMobile })).json().message).toBe('individual.contact.mobileNumber: does not have the expected shape');
    expect(await server.db.select({ id: verifications.id }).from(verifications)).toHaveLength(before.length);
  });

  it('a date of birth must exist and be before today in the tenant’s time zone (SUV §5); a refused one writes nothing', async () => {
    // The demo tenant's zone (the seed's): its calendar date now, and the days either side.
    const dayIn = (offsetDays: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + offsetDays * 86_400_000));
    const born = (DateOfBirth: string) => individualVerifyRequest({ ...passForm, IndividualDetails: { ...passForm.IndividualDetails, DateOfBirth } });
    const verify = (DateOfBirth: string) => api(server, 'POST', `${base}/individual/verify`, { token: admin, body: born(DateOfBirth) });
    const before = await server.db.select({ id: verifications.id }).from(verifications);
    for (const refused of [dayIn(0), dayIn(1), '2099-01-01']) {
      const response = await verify(refused);
      expect(response.statusCode, refused).toBe(400);
      expect(response.json().message, refused).toBe('individual.dateOfBirth: must be a date in the past');
    }
    // 1900 was not a leap year (a century not divisible by 400); 1980 and 2000 were.
    for (const refused of ['1980-02-30', '1981-02-29', '2023-02-29', '1981-04-31', '1900-02-29']) {
      const response = await verify(refused);
      expect(response.statusCode, refused).toBe(400);
      expect(response.json().message, refused).toBe('individual.dateOfBirth: is not a date that exists');
    }
    // A month or day out of range is the schema's shape refusal, as before.
    for (const refused of ['1980-13-01', '1980-00-10', '1980-01-00']) expect((await verify(refused)).json().message, refused).toBe('individual.dateOfBirth: does not have the expected shape');
    expect(await server.db.select({ id: verifications.id }).from(verifications)).toHaveLength(before.length);
    for (const accepted of [dayIn(-1), '1980-02-28', '1980-02-29', '2000-02-29', '1981-04-30']) {
      const response = await verify(accepted);
      expect(response.statusCode, accepted).toBe(200);
      const id = Number(VerifyResponseSchema.parse(response.json()).requestId.slice(1));
      const [record] = await server.db.select().from(verifications).where(eq(verifications.id, id));
      expect(record!.details, accepted).toMatchObject({ individual: { dateOfBirth: accepted } });
    }
  });

  it('biometric: a mobile written with spaces, as the invite form takes it, is sent without them (issue 39 point 20)', async () => {
    const body = biometricVerifyRequest({ IndividualDetails: { FirstName: 'Spaced', LastName: 'Number', MobileNumber: { PhoneNumber: '0412 000 111' } } });
    expect(body.individual.contact.mobileNumber).toBe('0412000111');
    // A caller of the API that keeps the spaces is answered the same.
    const spaced = { ...body, individual: { ...body.individual, contact: { mobileNumber: ' 0412 000 111 ' } } };
    const response = await api(server, 'POST', `${base}/individual/verify`, { token: admin, body: spaced });
    expect(response.statusCode).toBe(200);
    const id = Number(VerifyResponseSchema.parse(response.json()).requestId.slice(1));
    const [sms] = await server.db.select().from(outbox).where(eq(outbox.tenantId, 'demo')).orderBy(desc(outbox.id)).limit(1);
    expect(sms).toMatchObject({ channel: 'sms', recipient: '0412000111' });
    const detail = VerificationDetailSchema.parse((await api(server, 'GET', `${base}/individual/verifications/details/${id}`, { token: admin })).json());
    expect(detail.applicantMobileNumber).toBe('0412000111');
    // Still ten digits starting 04 once the spaces are gone (SUV §5).
    for (const refused of ['0412 000 11', '0412 000 1111', '0312 000 111']) {
      const wrong = await api(server, 'POST', `${base}/individual/verify`, { token: admin, body: { ...body, individual: { ...body.individual, contact: { mobileNumber: refused } } } });
      expect(wrong.statusCode, refused).toBe(400);
      expect(wrong.json().message, refused).toBe('individual.contact.mobileNumber: does not have the expected shape');
    }
  });

  it('the biometric form\'s own schema (the wizard\'s validator) takes the mobile with spaces', async () => {
    const definition = FormDefinitionResponseSchema.parse((await api(server, 'GET', `${base}/individual/details?verificationType=BiometricVerification`, { token: admin })).json());
    const { Ajv } = await import('ajv');
    const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(definition.jsonSchema));
    const form = (PhoneNumber: string) => ({ IndividualDetails: { FirstName: 'A', LastName: 'B', MobileNumber: { PhoneNumber } } });
    for (const good of ['0412 000 111', '0412000111', '04 1200 0111']) expect(validate(form(good)), good).toBe(true);
    for (const bad of ['0412 000 11', '0412 000 1111', '0312 000 111', '0412-000-111']) expect(validate(form(bad)), bad).toBe(false);
  });

  it('biometric: Pending with an SMS in the outbox; the link’s GET changes nothing, its POST completes once', async () => {
    const response = await api(server, 'POST', `${base}/individual/verify`, {
      token: admin,
      body: biometricVerifyRequest({ IndividualDetails: { FirstName: 'Grace', LastName: 'Kelly', MobileNumber: { PhoneNumber: '0412345678' } } }),
    });
    const result = VerifyResponseSchema.parse(response.json());
    expect(result).toMatchObject({ responseSucceeded: true, overallResult: 'pending', reportLink: '' });
    const id = Number(result.requestId.slice(1));
    const [sms] = await server.db.select().from(outbox).where(eq(outbox.tenantId, 'demo')).orderBy(desc(outbox.id)).limit(1);
    expect(sms).toMatchObject({ channel: 'sms', recipient: '0412345678' });
    const link = new URL(/(http:\/\/\S+)/.exec(sms!.body)![1]!);
    const page = await api(server, 'GET', link.pathname);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(biometricCompleteLabel);
    expect(page.body).toContain('Grace Kelly');
    const pending = VerificationDetailSchema.parse((await api(server, 'GET', `${base}/individual/verifications/details/${id}`, { token: admin })).json());
    expect(pending).toMatchObject({ requestStatus: 'Pending', responseDateUtc: null, reportLink: '', applicantMobileNumber: '0412345678' });
    expect((await api(server, 'GET', `${base}/individual/${id}/report`, { token: admin })).statusCode).toBe(404);

    const completed = await api(server, 'POST', link.pathname);
    expect(completed.statusCode).toBe(200);
    expect(completed.body).toContain(biometricDoneText);
    const again = await api(server, 'POST', link.pathname);
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain(biometricUsedText);
    const done = VerificationDetailSchema.parse((await api(server, 'GET', `${base}/individual/verifications/details/${id}`, { token: admin })).json());
    expect(done).toMatchObject({ requestStatus: 'Complete', responseResult: 'success', reportLink: `${base}/individual/${id}/report` });
    expect((await verificationAudit(server.db, id)).map((entry) => entry.activity)).toEqual([
      'Biometric verification invite sent to 0412345678 by Avery Admin',
      'Biometric verification completed by the individual (success)',
    ]);
  });
});

describe('reference codes', () => {
  it('are set (bidi controls removed), audited and found by the list search', async () => {
    const records = await oneOfEach();
    const code = `ZX-${Date.now()}`;
    const response = await api(server, 'POST', `${base}/individual/${records.individual.id}/ref-code`, { token: admin, body: { ref_code: `\u202e${code}` } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ref_code: code });
    const found = IndividualListResponseSchema.parse((await api(server, 'GET', `${base}/Individual?search=${encodeURIComponent(code.toLowerCase())}`, { token: admin })).json());
    expect(found.responses.map((row) => row.id)).toEqual([`V${records.individual.id}`]);
    expect(found.totalCount).toBe(1);
    // A page past the last still says how many match.
    const past = IndividualListResponseSchema.parse((await api(server, 'GET', `${base}/Individual?search=${encodeURIComponent(code)}&Page=2`, { token: admin })).json());
    expect(past).toEqual({ responses: [], totalCount: 1 });
    // Several words must all match (prefixes).
    const both = IndividualListResponseSchema.parse((await api(server, 'GET', `${base}/Individual?search=${encodeURIComponent(`${records.individual.subjectName.split(' ')[0]!.slice(0, 3)} ${code}`)}`, { token: admin })).json());
    expect(both.responses.map((row) => row.id)).toEqual([`V${records.individual.id}`]);
    expect((await verificationAudit(server.db, records.individual.id)).at(-1)?.activity).toBe(`Reference code set to ${code} by Avery Admin`);
    const none = IndividualListResponseSchema.parse((await api(server, 'GET', `${base}/Individual?search=${encodeURIComponent('!!!')}`, { token: admin })).json());
    expect(none).toEqual({ responses: [], totalCount: 0 });
  });
});

describe('search by what the list shows (issue 39 point 10)', () => {
  it('a company number as displayed, in groups of three, finds its records', async () => {
    const records = await oneOfEach();
    const acn = records.company.companyNumber;
    const shown = `${acn.slice(0, 3)} ${acn.slice(3, 6)} ${acn.slice(6)}`;
    const found = CompanyListResponseSchema.parse((await api(server, 'GET', `${base}/Company?search=${encodeURIComponent(shown)}`, { token: admin })).json());
    expect(found.totalCount).toBeGreaterThan(0);
    expect(found.responses.map((row) => row.id)).toContain(`C${records.company.id}`);
    for (const row of found.responses) expect(row.company.companyNumber).toBe(acn);
    // The first two groups are a prefix of the number, as the undivided digits are.
    const prefix = CompanyListResponseSchema.parse((await api(server, 'GET', `${base}/Company?search=${encodeURIComponent(shown.slice(0, 7))}`, { token: admin })).json());
    expect(prefix.responses.map((row) => row.id)).toContain(`C${records.company.id}`);
  });

  it('an id as the list shows it (C601, V602, either case) finds that record, and only on its own tab', async () => {
    const records = await oneOfEach();
    const company = CompanyListResponseSchema.parse((await api(server, 'GET', `${base}/Company?search=C${records.company.id}`, { token: admin })).json());
    expect(company).toMatchObject({ totalCount: 1, responses: [{ id: `C${records.company.id}` }] });
    const individual = IndividualListResponseSchema.parse((await api(server, 'GET', `${base}/Individual?search=v${records.individual.id}`, { token: admin })).json());
    expect(individual).toMatchObject({ totalCount: 1, responses: [{ id: `V${records.individual.id}` }] });
    // With a word of its name too: both must match.
    const first = records.individual.subjectName.split(' ')[0]!;
    const both = IndividualListResponseSchema.parse((await api(server, 'GET', `${base}/Individual?search=${encodeURIComponent(`V${records.individual.id} ${first}`)}`, { token: admin })).json());
    expect(both.responses.map((row) => row.id)).toEqual([`V${records.individual.id}`]);
    const notTheName = IndividualListResponseSchema.parse((await api(server, 'GET', `${base}/Individual?search=${encodeURIComponent(`V${records.individual.id} zzzzqq`)}`, { token: admin })).json());
    expect(notTheName).toEqual({ responses: [], totalCount: 0 });
    // The company letter names no individual record: C{n} on the Individual tab is not V{n}.
    const wrongTab = IndividualListResponseSchema.parse((await api(server, 'GET', `${base}/Individual?search=C${records.individual.id}`, { token: admin })).json());
    expect(wrongTab.responses.map((row) => row.id)).not.toContain(`V${records.individual.id}`);
    // Another tenant's id is not found.
    const acmeId = IndividualListResponseSchema.parse((await api(server, 'GET', `${base}/Individual?search=V${records.acme.id}`, { token: admin })).json());
    expect(acmeId).toEqual({ responses: [], totalCount: 0 });
  });
});

