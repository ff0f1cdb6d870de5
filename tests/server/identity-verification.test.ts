import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer, userWith } from './harness.ts';
import {
  applicationActivity,
  applicationApplicants,
  applicationDocuments,
  applicationIps,
  applicationOutstandingDocuments,
  applicationRequirements,
  applications,
} from '../../server/db/schema.ts';
import { renamedEmail, verificationExamples } from '../../server/db/identity-verification-seed.ts';
import {
  IdentificationOptionsResponseSchema,
  VerifyResponseSchema,
  type VerificationMode,
} from '../../src/schemas/identity-verification.schema.ts';
import { noVerificationOptionsText } from '../../src/domain/identity-verification.ts';
import { applicationNotFoundMessage } from '../../server/api/application-detail.routes.ts';
import { individualNotFoundMessage, notEligibleMessage } from '../../server/api/identity-verification.routes.ts';
import { sampleSanctionsList, samplePepList, failingSurname } from '../../server/providers/identity-verification/sandbox-identity-verification.ts';

/**
 * Issue 14 server: the sandbox's outcomes, the form refused by its schema (400 naming the field),
 * each mode's claim (403), eligibility (409), tenant and visibility (404), and the requirement
 * and activity written together.
 */
let server: TestServer;
let admin: string;
let acme: { guid: string; individual: string };
/** Demo applications, each with one individual whose name and flags a test sets. */
let people: { applicationId: number; guid: string; individual: string }[] = [];
let next = 0;

const viewClaims = ['view.allapps.instance'];
const modeClaims = { ExistingEnquiry: 'app.reverifyindividual', NewEnquiry: 'app.individualverification', SanctionsOnly: 'app.individualsanctionscheck' } as const;
const passport = { DocumentType: 'Passport', Country: 'AUS', PassportNumber: 'PA1234567' };

beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
  const rows = await server.db
    .select({ applicationId: applications.id, guid: applications.guid, individual: applicationApplicants.id })
    .from(applications)
    .innerJoin(applicationApplicants, eq(applicationApplicants.applicationId, applications.id))
    .where(and(eq(applications.tenantId, 'demo'), sql`${applications.status} not in ('Cancelled', 'Depersonalised')`, eq(applicationApplicants.position, 0)))
    .orderBy(applications.id)
    .limit(40);
  people = rows;
  const [other] = await server.db
    .select({ guid: applications.guid, individual: applicationApplicants.id })
    .from(applications)
    .innerJoin(applicationApplicants, eq(applicationApplicants.applicationId, applications.id))
    .where(and(eq(applications.tenantId, 'acme'), sql`${applications.status} not in ('Cancelled', 'Depersonalised')`))
    .limit(1);
  acme = other!;
});
afterAll(() => server.close());

/** A fresh demo individual with this name, eligible for every mode (or as `flags` says). */
async function person(firstName: string, lastName: string, flags: Partial<Record<'reverification' | 'newVerification' | 'sanctions', boolean>> = {}) {
  const target = people[next++]!;
  await server.db.update(applicationApplicants).set({ firstName, lastName, dateOfBirth: '1980-01-01' }).where(eq(applicationApplicants.id, target.individual));
  await server.db
    .update(applicationRequirements)
    .set({
      result: 1,
      resultText: 'Not verified',
      eligibleForReverification: flags.reverification ?? true,
      eligibleForNewVerification: flags.newVerification ?? true,
      eligibleForSanctionsVerification: flags.sanctions ?? true,
    })
    .where(eq(applicationRequirements.entityGuid, target.individual));
  return target;
}

const verify = (token: string, guid: string, body: unknown, host?: string) => api(server, 'POST', `/api/Reverification/verify/${guid}`, { token, body, host });
const options = (token: string, guid: string, individual: string) => api(server, 'GET', `/api/Reverification/identificationOptions/${guid}/${individual}`, { token });
const requirementOf = async (individual: string) =>
  (await server.db.select().from(applicationRequirements).where(eq(applicationRequirements.entityGuid, individual)))[0]!;
const latestActivity = async (applicationId: number) =>
  (await server.db.select().from(applicationActivity).where(eq(applicationActivity.applicationId, applicationId)).orderBy(desc(applicationActivity.id)).limit(1))[0]!;

describe('identification options', () => {
  it('answers the form (JSON Schema, UI schema) and its compiled validators as a same-origin module', async () => {
    const target = await person('Olivia', 'Nguyen');
    const response = await options(admin, target.guid, target.individual);
    expect(response.statusCode).toBe(200);
    const body = IdentificationOptionsResponseSchema.parse(response.json());
    expect(body.ErrorNo).toBe(0);
    expect(Object.keys((body.Data!.FormSchema.properties as object) ?? {})).toEqual(['DocumentType']);
    const module = await api(server, 'GET', body.Data!.ValidatorModule);
    expect(module.statusCode).toBe(200);
    expect(module.headers['content-type']).toMatch(/^text\/javascript/);
    expect(module.body).toContain('export default exports');
    expect(module.body).not.toContain('require(');
    expect((await api(server, 'GET', '/api/Reverification/formValidator/0000000000000000.js')).statusCode).toBe(404);
  });

  it("answers a negative ErrorNo and 'No additional verification options available.' for a person without a date of birth", async () => {
    const target = await person('Jack', 'Smith');
    await server.db.update(applicationApplicants).set({ dateOfBirth: '' }).where(eq(applicationApplicants.id, target.individual));
    const body = IdentificationOptionsResponseSchema.parse((await options(admin, target.guid, target.individual)).json());
    expect(body).toEqual({ ErrorNo: -1, Message: noVerificationOptionsText, Data: null });
  });

  it('is 403 without app.reverifyindividual, 409 when not eligible for re-verification, 404 for another tenant or individual', async () => {
    const target = await person('Isla', 'Kelly', { reverification: false });
    const { token } = await userWith(server, 'options-no-claim@demo.test', [...viewClaims, 'app.individualverification', 'app.individualsanctionscheck']);
    expect((await options(token, target.guid, target.individual)).statusCode).toBe(403);
    const refused = await options(admin, target.guid, target.individual);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(notEligibleMessage('ExistingEnquiry'));
    expect((await options(admin, acme.guid, acme.individual)).statusCode).toBe(404);
    const stranger = await options(admin, target.guid, acme.individual);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().message).toBe(individualNotFoundMessage);
    expect((await options(admin, 'not-a-guid', target.individual)).statusCode).toBe(400);
  });
});

describe('verify: the sandbox outcomes', () => {
  it('re-verification with a valid passport passes: Result 0, Verified, no further verification, an activity entry', async () => {
    const target = await person('Grace', 'Walker');
    const response = await verify(admin, target.guid, { IndividualId: target.individual, Mode: 'ExistingEnquiry', FormData: passport });
    expect(response.statusCode).toBe(200);
    expect(VerifyResponseSchema.parse(response.json())).toMatchObject({ ErrorNo: 0, Result: 0, ResultText: 'Verified' });
    const requirement = await requirementOf(target.individual);
    expect(requirement).toMatchObject({ result: 0, resultText: 'Verified', actionRequired: '', eligibleForReverification: false, eligibleForNewVerification: false });
    expect((await latestActivity(target.applicationId)).activity).toBe('Re-verification passed for Grace Walker by Avery Admin: The identity was verified.');
  });

  it('new verification of a passing person passes without any form', async () => {
    const target = await person('Noah', 'Harris');
    const response = await verify(admin, target.guid, { IndividualId: target.individual, Mode: 'NewEnquiry' });
    expect(response.json()).toMatchObject({ ErrorNo: 0, Result: 0 });
    expect((await latestActivity(target.applicationId)).activity).toMatch(/^Verification passed for Noah Harris/);
  });

  it(`the surname ${failingSurname} fails verification and stays open to re-verification`, async () => {
    const target = await person('Jane', failingSurname, { reverification: false });
    const response = await verify(admin, target.guid, { IndividualId: target.individual, Mode: 'NewEnquiry' });
    expect(response.json()).toMatchObject({ ErrorNo: 1, Result: 1, ResultText: 'Not verified' });
    expect(await requirementOf(target.individual)).toMatchObject({ result: 1, eligibleForReverification: true });
    expect((await latestActivity(target.applicationId)).activity).toMatch(/^Verification failed for Jane Fail by Avery Admin/);
  });

  it('a sanctions-list name is a sanctions hit in screening and in verification; a PEP-list name a PEP hit', async () => {
    const [first, last] = sampleSanctionsList[0].split(' ') as [string, string];
    const screened = await person(first, last);
    const screening = await verify(admin, screened.guid, { IndividualId: screened.individual, Mode: 'SanctionsOnly' });
    expect(screening.json()).toMatchObject({ ErrorNo: 2, Result: 2, ResultText: 'Sanctions match' });
    expect(await requirementOf(screened.individual)).toMatchObject({ result: 2, eligibleForReverification: false, eligibleForNewVerification: false, eligibleForSanctionsVerification: true });
    expect((await latestActivity(screened.applicationId)).activity).toMatch(/^PEP\/Sanctions screening failed for Mallory Embargo/);

    const [otherFirst, otherLast] = sampleSanctionsList[1].split(' ') as [string, string];
    const verified = await person(otherFirst.toUpperCase(), otherLast.toLowerCase());
    expect((await verify(admin, verified.guid, { IndividualId: verified.individual, Mode: 'NewEnquiry' })).json()).toMatchObject({ ErrorNo: 2 });

    const [pepFirst, pepLast] = samplePepList[0].split(' ') as [string, string];
    const pep = await person(pepFirst, pepLast);
    expect((await verify(admin, pep.guid, { IndividualId: pep.individual, Mode: 'SanctionsOnly' })).json()).toMatchObject({ ErrorNo: 3, ResultText: 'PEP match' });
  });

  it('a clear screening passes and leaves the identity result as it was', async () => {
    const target = await person('Chloe', 'Lee');
    expect((await verify(admin, target.guid, { IndividualId: target.individual, Mode: 'SanctionsOnly' })).json()).toMatchObject({ ErrorNo: 0, Result: 1, ResultText: 'Not verified' });
    expect((await latestActivity(target.applicationId)).activity).toBe('PEP/Sanctions screening passed for Chloe Lee by Avery Admin: No PEP or sanctions match.');
  });

  it('accepts each document shape: a licence by state, a passport by country, Medicare by card colour', async () => {
    const documents = [
      { DocumentType: 'DriverLicence', State: 'WA', LicenceNumber: '1234567', CardNumber: 'AB12345678' },
      { DocumentType: 'DriverLicence', State: 'NSW', LicenceNumber: 'AB1234', CardNumber: '1234567890' },
      { DocumentType: 'Passport', Country: 'NZL', PassportNumber: 'LA123456' },
      { DocumentType: 'Medicare', CardColour: 'Green', CardNumber: '2123456789', IndividualReferenceNumber: '1', Expiry: '2031-04' },
      { DocumentType: 'Medicare', CardColour: 'Blue', CardNumber: '2123456789', IndividualReferenceNumber: '2', Expiry: '2031-04-30' },
    ];
    for (const document of documents) {
      const target = await person('Mia', 'Ryan');
      const response = await verify(admin, target.guid, { IndividualId: target.individual, Mode: 'ExistingEnquiry', FormData: document });
      expect(response.statusCode, JSON.stringify(document)).toBe(200);
      expect(response.json().ErrorNo).toBe(0);
    }
  });
});

describe('verify: refusals', () => {
  it('is 400 naming the field for a form that fails its schema, a missing form, a form in another mode, a bad IndividualId or Mode', async () => {
    const target = await person('Henry', 'White');
    const cases: [unknown, RegExp][] = [
      [{ IndividualId: target.individual, Mode: 'ExistingEnquiry', FormData: { ...passport, PassportNumber: '123' } }, /^FormData\.PassportNumber: /],
      [{ IndividualId: target.individual, Mode: 'ExistingEnquiry', FormData: { DocumentType: 'DriverLicence', State: 'WA', LicenceNumber: '1234567', CardNumber: 'AB12345678', Expiry: 1 } }, /^(?!)/],
      [{ IndividualId: target.individual, Mode: 'ExistingEnquiry', FormData: { DocumentType: 'Medicare', CardColour: 'Green', CardNumber: '2123456789', IndividualReferenceNumber: '1', Expiry: '2031-04-30' } }, /^FormData\.Expiry: /],
      [{ IndividualId: target.individual, Mode: 'ExistingEnquiry', FormData: { DocumentType: 'Passport', Country: 'AUS' } }, /^FormData\.PassportNumber: is required/],
      [{ IndividualId: target.individual, Mode: 'ExistingEnquiry' }, /^FormData: /],
      [{ IndividualId: target.individual, Mode: 'NewEnquiry', FormData: passport }, /^FormData: /],
      [{ IndividualId: 'someone', Mode: 'NewEnquiry' }, /IndividualId/],
      [{ IndividualId: target.individual, Mode: 'Everything' }, /Mode/],
    ];
    for (const [body, message] of cases) {
      const response = await verify(admin, target.guid, body);
      if (message.source === '^(?!)') {
        // A field the chosen document does not have is ignored, not refused.
        expect(response.statusCode).toBe(200);
        await server.db.update(applicationRequirements).set({ eligibleForReverification: true }).where(eq(applicationRequirements.entityGuid, target.individual));
        continue;
      }
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect((await requirementOf(target.individual)).result).toBe(0);
  });

  it.each(Object.entries(modeClaims))('is 403 for %s without %s, even holding the other two', async (mode, claim) => {
    const target = await person('Zoe', 'Martin');
    const others = Object.values(modeClaims).filter((other) => other !== claim);
    const { token } = await userWith(server, `no-${claim}@demo.test`, [...viewClaims, ...others]);
    const body = { IndividualId: target.individual, Mode: mode, ...(mode === 'ExistingEnquiry' ? { FormData: passport } : {}) };
    const response = await verify(token, target.guid, body);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toContain(claim);
    const { token: alone } = await userWith(server, `only-${claim}@demo.test`, [...viewClaims, claim]);
    expect((await verify(alone, target.guid, body)).statusCode).toBe(200);
  });

  it.each(['ExistingEnquiry', 'NewEnquiry', 'SanctionsOnly'] as const)('is 409 with a message when the requirement is not eligible for %s, and writes nothing', async (mode: VerificationMode) => {
    const flag = { ExistingEnquiry: 'reverification', NewEnquiry: 'newVerification', SanctionsOnly: 'sanctions' } as const;
    const target = await person('Lucas', 'Taylor', { [flag[mode]]: false });
    const before = await latestActivity(target.applicationId);
    const response = await verify(admin, target.guid, { IndividualId: target.individual, Mode: mode, ...(mode === 'ExistingEnquiry' ? { FormData: passport } : {}) });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(notEligibleMessage(mode));
    expect((await latestActivity(target.applicationId)).id).toBe(before.id);
    expect((await requirementOf(target.individual)).result).toBe(1);
  });

  it("is 404 for another tenant's application, one the caller cannot see, and an individual not on the application", async () => {
    const target = await person('Thomas', 'Wilson');
    const body = { IndividualId: target.individual, Mode: 'NewEnquiry' };
    const other = await verify(admin, acme.guid, { ...body, IndividualId: acme.individual });
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(applicationNotFoundMessage);
    // acme's admin, on acme's host, does not see demo's application either.
    const acmeAdmin = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
    expect((await verify(acmeAdmin, target.guid, body, hosts.acme)).statusCode).toBe(404);
    const { token: mine } = await userWith(server, 'verify-mine@demo.test', ['view.myapps', ...Object.values(modeClaims)]);
    expect((await verify(mine, target.guid, body)).statusCode).toBe(404);
    const stranger = await verify(admin, target.guid, { ...body, IndividualId: acme.individual });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().message).toBe(individualNotFoundMessage);
    expect((await requirementOf(target.individual)).result).toBe(1);
    expect((await verify('', target.guid, body)).statusCode).toBe(401);
  });
});

describe('the seeded sandbox people (issue 32)', () => {
  it('carry their own name everywhere their application names them, not the generated person\'s', async () => {
    expect(renamedEmail('lola.wilderman934@example.com', 'Sandra', 'Sandbox')).toBe('sandra.sandbox934@example.com');
    for (const example of verificationExamples) {
      const name = `${example.firstName} ${example.lastName}`;
      const [row] = await server.db
        .select({ id: applications.id, primaryEmail: applications.primaryEmail, email: applicationApplicants.email })
        .from(applications)
        .innerJoin(applicationApplicants, eq(applicationApplicants.applicationId, applications.id))
        .where(and(eq(applications.tenantId, 'demo'), eq(applications.clientName, name), eq(applicationApplicants.position, 0)));
      expect(row, name).toBeDefined();
      const ownAddress = new RegExp(`^${example.firstName.toLowerCase()}\\.${example.lastName.toLowerCase()}[0-9]*@`);
      for (const address of [row!.primaryEmail, row!.email].filter((value) => value !== '')) expect(address, name).toMatch(ownAddress);
      const applicantNames = (
        await server.db
          .select({ first: applicationApplicants.firstName, last: applicationApplicants.lastName })
          .from(applicationApplicants)
          .where(eq(applicationApplicants.applicationId, row!.id))
      ).map((applicant) => `${applicant.first} ${applicant.last}`);
      expect(applicantNames).toContain(name);
      // Every VPN row and every document or outstanding document named after a person names one of the applicants.
      const ipNames = await server.db.select({ name: applicationIps.applicantName }).from(applicationIps).where(eq(applicationIps.applicationId, row!.id));
      for (const ip of ipNames) expect(applicantNames, name).toContain(ip.name);
      const documentNames = [
        ...(await server.db.select({ name: applicationDocuments.friendlyName }).from(applicationDocuments).where(eq(applicationDocuments.applicationId, row!.id))),
        ...(await server.db.select({ name: applicationOutstandingDocuments.name }).from(applicationOutstandingDocuments).where(eq(applicationOutstandingDocuments.applicationId, row!.id))),
      ];
      for (const document of documentNames) {
        const named = /\(([^)]+)\)$/.exec(document.name)?.[1];
        if (named) expect(applicantNames, `${name}: ${document.name}`).toContain(named);
      }
    }
  });
});
