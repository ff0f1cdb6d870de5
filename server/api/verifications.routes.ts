import { randomBytes } from 'node:crypto';
import {
  BiometricVerifyRequestSchema,
  CompanyLookupResponseSchema,
  CompanyVerifyRequestSchema,
  DetailParamsSchema,
  FormDefinitionResponseSchema,
  FormDetailsQuerySchema,
  FormValidatorParamsSchema,
  GenerateReportRequestSchema,
  GenerateReportResponseSchema,
  IndividualVerifyRequestSchema,
  RefCodeParamsSchema,
  RefCodeRequestSchema,
  RefCodeResponseSchema,
  ReportParamsSchema,
  VerificationDetailSchema,
  VerificationListParamsSchema,
  VerificationListQuerySchema,
  VerificationListResponseSchema,
  VerifyRequestSchema,
  VerifyResponseSchema,
  type BiometricVerifyRequest,
  type IndividualVerificationType,
  type VerifyRequest,
} from '../../src/schemas/verifications.schema.ts';
import {
  calendarDateIn,
  dateOfBirthProblem,
  formModelOf,
  requestFieldOf,
  shownText,
  verificationClaims,
  verificationId,
} from '../../src/domain/verifications.ts';
import { hasClaim } from '../../src/domain/permissions.ts';
import { badRequest, forbidden, notFound } from '../http-error.ts';
import { attachmentHeader } from '../content-disposition.ts';
import { outbox, verifications } from '../db/schema.ts';
import { versionedAnswers } from '../db/versioned-answers.ts';
import { eq } from 'drizzle-orm';
import {
  findVerification,
  insertVerification,
  kindOf,
  listVerifications,
  setRefCode,
  type Actor,
  type VerificationKind,
  type VerificationRecord,
} from '../db/verifications-store.ts';
import type { CompanyRegistry } from '../providers/company-registry/company-registry.ts';
import { findCompany } from '../providers/company-registry/company-registry.ts';
import { createSandboxCompanyRegistry } from '../providers/company-registry/sandbox-company-registry.ts';
import type { IdentityVerificationProvider } from '../providers/identity-verification/identity-verification-provider.ts';
import {
  overallResultOf,
  providerReferenceOf,
  statusOfResult,
} from '../providers/identity-verification/overall-result.ts';
import { createSandboxIdentityVerification } from '../providers/identity-verification/sandbox-identity-verification.ts';
import { compileForm, type CompiledForm } from '../providers/identity-verification/form-validators.ts';
import {
  verificationDetailsForm,
  verificationTypeForm,
  type StandaloneForm,
} from '../providers/identity-verification/standalone-forms.ts';
import { registerBiometricSandboxRoutes, biometricInvitePath } from './biometric-sandbox.routes.ts';
import {
  hasReport,
  reportBytes,
  reportLinkOf,
  reportNameOf,
  verificationBase,
} from './verification-reports.ts';
import { linkOrigin } from '../tenancy.ts';
import { principalOf, tenantOf, type RouteContext } from './context.ts';

export const companyNotFoundMessage = 'No Company was found that matches the ACN.';
export const verificationNotFoundMessage = 'No verification was found with this id.';

const scope = 'entityverification' as const;
const claimOfKind = {
  company: verificationClaims.company,
  individual: verificationClaims.individual,
} as const;

const actorOf = (principal: { userId: string; tenantId: string; displayName: string }): Actor => ({
  userId: principal.userId,
  tenantId: principal.tenantId,
  displayName: principal.displayName,
});

/** The first ajv problem with the form model, named by its request field ('individual.firstName: is required'). */
function requestProblem(
  type: IndividualVerificationType,
  form: CompiledForm,
  model: Record<string, unknown>,
): string | undefined {
  if (form.validate(model)) return undefined;
  const error = form.validate.errors?.find((candidate) => candidate.keyword !== 'if');
  if (!error) return 'body: is not valid';
  const missing =
    error.keyword === 'required' && typeof error.params.missingProperty === 'string'
      ? `/${error.params.missingProperty}`
      : '';
  const formPath = `${error.instancePath}${missing}`.split('/').filter(Boolean).join('.');
  const detail =
    error.keyword === 'required'
      ? 'is required'
      : error.keyword === 'pattern'
        ? 'does not have the expected shape'
        : (error.message ?? 'is not valid');
  return `${requestFieldOf(type, formPath)}: ${detail}`;
}

const isBiometric = (request: VerifyRequest) =>
  request.requestMetaData.verificationType === 'BiometricVerification';

const hasContact = (request: VerifyRequest): request is BiometricVerifyRequest => 'contact' in request.individual;

/** SUV §3 "MobileNumber (spaces removed)": a mobile written with spaces is that number (issue 39 point 20). */
function withMobileUnspaced(request: VerifyRequest): VerifyRequest {
  if (!hasContact(request)) return request;
  const { individual } = request;
  const mobileNumber = individual.contact.mobileNumber.replace(/ /g, '');
  return { ...request, individual: { ...individual, contact: { ...individual.contact, mobileNumber } } };
}

/**
 * SUV §7 `/entity-verification/api/v1/...` (issue 29). The token must carry the entityverification
 * scope; every route needs entityverification.access and the claim of its kind (company,
 * individual); records are the caller's tenant's (another tenant's is not found). The registry and
 * the identity-verification provider are the deterministic sandboxes unless others are given.
 */
export function registerVerificationRoutes(
  { app, db, access, config }: RouteContext,
  providers: { registry?: CompanyRegistry; identity?: IdentityVerificationProvider } = {},
) {
  const registry = providers.registry ?? createSandboxCompanyRegistry();
  const identity = providers.identity ?? createSandboxIdentityVerification();
  const listAnswers = versionedAnswers<Awaited<ReturnType<typeof listVerifications>>>(db, 'verifications');
  const forms = {
    type: verificationTypeForm(),
    IndividualVerification: verificationDetailsForm('IndividualVerification'),
    BiometricVerification: verificationDetailsForm('BiometricVerification'),
  };
  const compiled = new Map<string, CompiledForm>();
  const compiledFor = (form: StandaloneForm) => {
    const key = JSON.stringify(form.schema);
    let result = compiled.get(key);
    if (!result) {
      result = compileForm(form.schema);
      compiled.set(key, result);
    }
    return result;
  };
  // Compiling takes a moment per form (docs/decisions/007): after start, not in someone's request.
  setImmediate(() => Object.values(forms).forEach(compiledFor));
  const definition = (form: StandaloneForm) => ({
    jsonSchema: JSON.stringify(form.schema),
    uiSchema: JSON.stringify(form.uiSchema),
    data: JSON.stringify(form.data),
    validatorModule: `${verificationBase}/individual/form-validator/${compiledFor(form).hash}.js`,
  });

  const rule = (...claims: string[]) =>
    access.requireAccess({ scope, claims: [verificationClaims.access, ...claims] });
  const anyKindRule = access.requireAccess({
    scope,
    claims: [verificationClaims.access],
    anyClaim: [verificationClaims.company, verificationClaims.individual],
  });

  /** The caller's tenant's record of `kind`, refused with 403 without that kind's claim. */
  async function recordFor(
    request: Parameters<typeof principalOf>[0],
    id: string,
    kind?: VerificationKind,
  ): Promise<VerificationRecord> {
    const principal = principalOf(request);
    const record = await findVerification(db, principal.tenantId, Number(id), kind);
    if (!record) throw notFound(verificationNotFoundMessage);
    const claim = claimOfKind[record.kind];
    if (!hasClaim(principal.claims, claim)) throw forbidden(`Requires the ${claim} claim.`);
    return record;
  }

  app.get(
    `${verificationBase}/:service`,
    {
      onRequest: anyKindRule,
      schema: {
        params: VerificationListParamsSchema,
        querystring: VerificationListQuerySchema,
        response: { 200: VerificationListResponseSchema },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { service } = request.params;
      const claim = claimOfKind[kindOf(service)];
      if (!hasClaim(principal.claims, claim)) throw forbidden(`Requires the ${claim} claim.`);
      const { Page, search } = request.query;
      const { rows, total } = await listAnswers(principal.tenantId, JSON.stringify([service, Page, search]), () =>
        listVerifications(db, principal.tenantId, kindOf(service), Page, search),
      );
      void reply.header('cache-control', 'no-store');
      const link = (row: (typeof rows)[number]) =>
        row.status.toLowerCase() === 'pending' ? '' : reportLinkOf({ id: row.id, kind: kindOf(service) });
      const responses =
        service === 'Company'
          ? rows.map((row) => ({
              id: verificationId('Company', row.id),
              company: { name: row.subjectName, companyNumber: row.companyNumber },
              date: row.createdAt.toISOString(),
              requester_name: row.requesterName,
              status: row.status,
              report_link: link(row),
              ref_code: row.refCode,
            }))
          : rows.map((row) => ({
              id: verificationId('Individual', row.id),
              full_name: row.subjectName,
              date: row.createdAt.toISOString(),
              requester_name: row.requesterName,
              type: row.requestType,
              status: row.status,
              report_link: link(row),
              ref_code: row.refCode,
            }));
      return { responses, totalCount: total };
    },
  );

  app.post(
    `${verificationBase}/company/verify`,
    {
      config: { application: 'none' },
      onRequest: rule(verificationClaims.company),
      schema: { body: CompanyVerifyRequestSchema, response: { 200: CompanyLookupResponseSchema } },
    },
    async (request) => {
      // SUV §7: a non-ok answer means not found; an ACN failing its check digit never reaches the registry.
      const company = await findCompany(registry, request.body.CompanyNumber);
      if (!company) throw notFound(companyNotFoundMessage);
      return company;
    },
  );

  app.post(
    `${verificationBase}/company/generate-report`,
    {
      config: { application: 'none' },
      onRequest: rule(verificationClaims.company),
      schema: { body: GenerateReportRequestSchema, response: { 200: GenerateReportResponseSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const acn = request.body.company_number;
      if (!(await findCompany(registry, acn))) throw notFound(companyNotFoundMessage);
      // Whole seconds: the "as at" time prints to the minute and the PDF's dates to the second.
      const asAt = new Date(Math.floor(Date.now() / 1000) * 1000);
      const extract = await registry.extract(acn, asAt);
      if (!extract) throw notFound(companyNotFoundMessage);
      const record = await insertVerification(
        db,
        actorOf(principal),
        {
          kind: 'company',
          requestType: 'Company',
          status: 'Complete',
          subjectName: extract.companyName,
          companyNumber: extract.companyNumber,
          provider: registry.name,
          details: { ...extract },
          createdAt: asAt,
          completedAt: asAt,
        },
        `Company registry report for ACN ${acn} generated by ${principal.displayName}`,
      );
      return { reportLink: reportLinkOf(record) };
    },
  );

  app.post(
    `${verificationBase}/:kind/:recordNumber/ref-code`,
    {
      config: { application: 'none' },
      onRequest: anyKindRule,
      schema: {
        params: RefCodeParamsSchema,
        body: RefCodeRequestSchema,
        response: { 200: RefCodeResponseSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { kind, recordNumber: id } = request.params;
      const claim = claimOfKind[kind];
      if (!hasClaim(principal.claims, claim)) throw forbidden(`Requires the ${claim} claim.`);
      const refCode = shownText(request.body.ref_code);
      if (refCode === undefined) throw badRequest('ref_code: must hold visible characters');
      if (!(await setRefCode(db, actorOf(principal), kind, Number(id), refCode)))
        throw notFound(verificationNotFoundMessage);
      return { ref_code: refCode };
    },
  );

  app.get(
    `${verificationBase}/individual/form`,
    {
      onRequest: rule(verificationClaims.individual),
      schema: { response: { 200: FormDefinitionResponseSchema } },
    },
    async () => definition(forms.type),
  );

  app.get(
    `${verificationBase}/individual/details`,
    {
      onRequest: rule(verificationClaims.individual),
      schema: { querystring: FormDetailsQuerySchema, response: { 200: FormDefinitionResponseSchema } },
    },
    async (request) => definition(forms[request.query.verificationType]),
  );

  // A module script cannot carry a bearer token; it holds only a compiled form schema, addressed by its hash.
  app.get(
    `${verificationBase}/individual/form-validator/:file`,
    { schema: { params: FormValidatorParamsSchema } },
    async (request, reply) => {
      const form = [...compiled.values()].find((candidate) => `${candidate.hash}.js` === request.params.file);
      if (!form) throw notFound();
      return reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(form.moduleCode);
    },
  );

  app.post(
    `${verificationBase}/individual/verify`,
    {
      config: { application: 'none' },
      onRequest: rule(verificationClaims.individual),
      schema: { body: VerifyRequestSchema, response: { 200: VerifyResponseSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = withMobileUnspaced(request.body);
      const type: IndividualVerificationType = isBiometric(body)
        ? 'BiometricVerification'
        : 'IndividualVerification';
      const problem = requestProblem(type, compiledFor(forms[type]), formModelOf(type, body));
      if (problem) throw badRequest(problem);
      const firstName = shownText(body.individual.firstName);
      const lastName = shownText(body.individual.lastName);
      if (!firstName || !lastName)
        throw badRequest(`individual.${firstName ? 'lastName' : 'firstName'}: must hold visible characters`);
      const name = [firstName, shownText(body.individual.middleName ?? ''), lastName]
        .filter(Boolean)
        .join(' ');
      const now = new Date(Math.floor(Date.now() / 1000) * 1000);
      const reference = shownText(body.requestMetaData.reference ?? '') ?? '';

      if (type === 'BiometricVerification') {
        // The union matched; the type's own schema names a field the other type lacks (the mobile).
        const biometric = BiometricVerifyRequestSchema.safeParse(body);
        if (!biometric.success)
          throw badRequest(biometric.error.issues.map((issue) => issue.message).join('; '));
        const mobile = biometric.data.individual.contact.mobileNumber;
        const token = randomBytes(24).toString('base64url');
        const link = `${linkOrigin(tenantOf(request), config)}${biometricInvitePath(token)}`;
        const record = await insertVerification(
          db,
          actorOf(principal),
          {
            kind: 'individual',
            requestType: type,
            status: 'Pending',
            subjectName: name,
            mobileNumber: mobile,
            refCode: reference,
            provider: identity.name,
            details: { ...body },
            inviteToken: token,
            createdAt: now,
          },
          `Biometric verification invite sent to ${mobile} by ${principal.displayName}`,
          async (tx, created) => {
            await tx.insert(outbox).values({
              tenantId: created.tenantId,
              channel: 'sms',
              recipient: mobile,
              body: `${tenantOf(request).name}: please verify your identity with your ID document and a selfie: ${link}`,
              transport: 'sandbox',
              userId: principal.userId,
            });
          },
        );
        return {
          requestId: verificationId('Individual', record.id),
          requestDateTime: now.toISOString(),
          responseSucceeded: true,
          overallResult: 'pending',
          provider: identity.name,
          providerReference: '',
          reportLink: '',
        };
      }

      const parsed = IndividualVerifyRequestSchema.safeParse(body);
      if (!parsed.success) throw badRequest(parsed.error.issues.map((issue) => issue.message).join('; '));
      const verifyRequest = parsed.data;
      const individual = verifyRequest.individual;
      // The wizard's own rule, on the tenant's calendar (SUV §5): no one born today, later, or on 30 February.
      const birthProblem = dateOfBirthProblem(individual.dateOfBirth, calendarDateIn(tenantOf(request).timeZone));
      if (birthProblem) throw badRequest(`individual.dateOfBirth: ${birthProblem}`);
      const address = individual.address;
      const result = await identity.verify({
        mode: 'NewEnquiry',
        individual: {
          firstName: firstName,
          lastName: lastName,
          dateOfBirth: individual.dateOfBirth,
          address: [
            address.unitNumber,
            address.streetNumber,
            address.streetName,
            address.streetType,
            address.suburb,
            address.state,
            address.postcode,
          ]
            .filter(Boolean)
            .join(' '),
        },
        identification: {
          ...(verifyRequest.driversLicence ?? {}),
          ...(verifyRequest.medicareCard ?? {}),
          ...(verifyRequest.passport ?? {}),
        },
      });
      const overallResult = overallResultOf(result.outcome);
      const record = await insertVerification(
        db,
        actorOf(principal),
        {
          kind: 'individual',
          requestType: type,
          status: statusOfResult(overallResult),
          subjectName: name,
          refCode: reference,
          overallResult,
          provider: identity.name,
          details: { ...body },
          createdAt: now,
          completedAt: now,
        },
        `Individual verification of ${name} by ${principal.displayName}: ${result.message}`,
        async (tx, created) => {
          await tx
            .update(verifications)
            .set({ providerReference: providerReferenceOf(identity.name, created.id) })
            .where(eq(verifications.id, created.id));
        },
      );
      return {
        requestId: verificationId('Individual', record.id),
        requestDateTime: now.toISOString(),
        responseSucceeded: true,
        overallResult,
        provider: identity.name,
        providerReference: providerReferenceOf(identity.name, record.id),
        reportLink: reportLinkOf(record),
      };
    },
  );

  app.get(
    `${verificationBase}/individual/verifications/details/:id`,
    {
      onRequest: anyKindRule,
      schema: { params: DetailParamsSchema, response: { 200: VerificationDetailSchema } },
    },
    async (request, reply) => {
      const record = await recordFor(request, request.params.id);
      void reply.header('cache-control', 'no-store');
      const withReport = hasReport(record);
      return {
        applicationId: verificationId(record.kind === 'company' ? 'Company' : 'Individual', record.id),
        applicantName: record.subjectName,
        applicantMobileNumber: record.mobileNumber,
        requestStatus: record.status,
        requester: record.requesterName,
        requestDateUtc: record.createdAt.toISOString(),
        responseDateUtc: record.completedAt?.toISOString() ?? null,
        requestType: record.requestType,
        referenceNumber: record.refCode,
        responseResult: record.overallResult,
        reportLink: withReport ? reportLinkOf(record) : '',
        reportName: withReport ? reportNameOf(record) : '',
      };
    },
  );

  app.get(
    `${verificationBase}/:kind/:id/report`,
    { onRequest: anyKindRule, schema: { params: ReportParamsSchema } },
    async (request, reply) => {
      const record = await recordFor(request, request.params.id, request.params.kind);
      if (!hasReport(record)) throw notFound('This verification has no report yet.');
      const pdf = await reportBytes(record, tenantOf(request).name);
      return reply
        .type('application/pdf')
        .header('content-disposition', attachmentHeader(reportNameOf(record)))
        .header('cache-control', 'no-store')
        .send(Buffer.from(pdf));
    },
  );

  registerBiometricSandboxRoutes(app, db, identity);
}
