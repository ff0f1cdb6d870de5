import {
  FormValidatorParamsSchema,
  IdentificationOptionsParamsSchema,
  IdentificationOptionsResponseSchema,
  VerifyParamsSchema,
  VerifyRequestSchema,
  VerifyResponseSchema,
  type VerificationMode,
} from '../../src/schemas/identity-verification.schema.ts';
import {
  addsIdentification,
  isEligibleFor,
  noVerificationOptionsText,
  verificationModeRules,
  verificationModeWords,
} from '../../src/domain/identity-verification.ts';
import { hasClaim } from '../../src/domain/permissions.ts';
import { badRequest, forbidden, HttpError, notFound } from '../http-error.ts';
import { findVisibleApplicationByGuid } from '../db/application-detail-store.ts';
import type { Actor } from '../db/applications-store.ts';
import {
  individualRequirement,
  recordVerification,
  requirementAfter,
  verificationActivity,
  type IndividualRequirement,
} from '../db/identity-verification-store.ts';
import type { Database } from '../db/client.ts';
import type { IdentityVerificationProvider } from '../providers/identity-verification/identity-verification-provider.ts';
import { createSandboxIdentityVerification } from '../providers/identity-verification/sandbox-identity-verification.ts';
import { compileForm, formDataProblem, type CompiledForm } from '../providers/identity-verification/form-validators.ts';
import { applicationNotFoundMessage, viewApplicationRule } from './application-detail.routes.ts';
import { principalOf, type RouteContext } from './context.ts';
import { applicationGuidIn } from './application-write-rule.ts';

export const individualNotFoundMessage = 'This individual is not part of the application.';
export const notEligibleMessage = (mode: VerificationMode) => `This requirement is not eligible for ${verificationModeWords(mode)}.`;
export const verificationChangedMessage = (mode: VerificationMode) =>
  `This requirement is no longer eligible for ${verificationModeWords(mode)}: another verification has just finished. Refresh the application.`;

const conflict = (message: string) => new HttpError(409, message);
const validatorPath = (hash: string) => `/api/Reverification/formValidator/${hash}.js`;

async function requirementOr404(db: Database, actor: Actor, applicationGuid: string, individualId: string) {
  const application = await findVisibleApplicationByGuid(db, actor, applicationGuid);
  if (!application) throw notFound(applicationNotFoundMessage);
  const requirement = await individualRequirement(db, application.id, individualId);
  if (!requirement) throw notFound(individualNotFoundMessage);
  return { application, requirement };
}

function eligibleOr409(mode: VerificationMode, requirement: IndividualRequirement) {
  if (!isEligibleFor(mode, requirement)) throw conflict(notEligibleMessage(mode));
}

/**
 * AM §7 identity verification calls (issue 14). Claims per mode (AM §6) with the requirement's
 * matching eligibility flag (409 without it), the application visible to the caller in their tenant
 * (404 otherwise). The provider is the deterministic sandbox unless another is given.
 */
export function registerIdentityVerificationRoutes(
  { app, db, access }: RouteContext,
  provider: IdentityVerificationProvider = createSandboxIdentityVerification(),
) {
  // Forms are compiled once per distinct schema; the sandbox has one.
  const compiled = new Map<string, CompiledForm>();
  const compiledFor = (schema: Record<string, unknown>) => {
    const key = JSON.stringify(schema);
    let form = compiled.get(key);
    if (!form) {
      form = compileForm(schema);
      compiled.set(key, form);
    }
    return form;
  };
  const byHash = () => new Map([...compiled.values()].map((form) => [form.hash, form]));
  // Compiling takes most of a second (ajv, every subschema for rjsf): done once the server has
  // started rather than in the first person's request. Derived from the code, so no state to share.
  setImmediate(() => {
    for (const form of provider.identificationForms()) compiledFor(form.schema);
  });

  app.get(
    '/api/Reverification/identificationOptions/:applicationGuid/:individualGuid',
    {
      preValidation: access.requireAccess({ ...viewApplicationRule, claims: [verificationModeRules.ExistingEnquiry.claim] }),
      schema: { params: IdentificationOptionsParamsSchema, response: { 200: IdentificationOptionsResponseSchema } },
    },
    async (request, reply) => {
      const { requirement } = await requirementOr404(db, principalOf(request), request.params.applicationGuid, request.params.individualGuid);
      eligibleOr409('ExistingEnquiry', requirement);
      void reply.header('cache-control', 'no-store');
      const form = provider.identificationForm(requirement.individual);
      if (!form) return { ErrorNo: -1, Message: noVerificationOptionsText, Data: null };
      const { hash } = compiledFor(form.schema);
      return { ErrorNo: 0, Message: '', Data: { FormSchema: form.schema, UISchema: form.uiSchema, ValidatorModule: validatorPath(hash) } };
    },
  );

  // A module script cannot carry a bearer token; it holds only a compiled form schema, addressed by its hash.
  app.get('/api/Reverification/formValidator/:file', { schema: { params: FormValidatorParamsSchema } }, async (request, reply) => {
    const form = byHash().get(request.params.file.slice(0, -3));
    if (!form) throw notFound();
    return reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(form.moduleCode);
  });

  app.post(
    '/api/Reverification/verify/:applicationGuid',
    {
      config: { application: applicationGuidIn('params', 'applicationGuid') },
      preValidation: access.requireAccess(viewApplicationRule),
      schema: { params: VerifyParamsSchema, body: VerifyRequestSchema, response: { 200: VerifyResponseSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const { IndividualId, Mode, FormData } = request.body;
      const rule = verificationModeRules[Mode];
      if (!hasClaim(principal.claims, rule.claim)) throw forbidden(`Requires the ${rule.claim} claim.`);
      if (!addsIdentification(Mode) && FormData !== undefined) throw badRequest(`FormData: only ${verificationModeWords('ExistingEnquiry')} adds identification`);
      const { application, requirement } = await requirementOr404(db, principal, request.params.applicationGuid, IndividualId);
      eligibleOr409(Mode, requirement);

      let identification: Record<string, unknown> | undefined;
      if (addsIdentification(Mode)) {
        const form = provider.identificationForm(requirement.individual);
        if (!form) throw conflict(noVerificationOptionsText);
        if (FormData === undefined) throw badRequest('FormData: the identification to add is required');
        const { validate } = compiledFor(form.schema);
        if (!validate(FormData)) throw badRequest(formDataProblem(validate.errors) ?? 'FormData: is not valid');
        identification = FormData;
      }

      const result = await provider.verify({ mode: Mode, individual: requirement.individual, identification });
      const passed = result.errorNo === 0;
      const update = requirementAfter(Mode, result.outcome, requirement);
      const name = `${requirement.individual.firstName} ${requirement.individual.lastName}`.trim();
      const written = await recordVerification(
        db,
        principal,
        application.id,
        requirement.requirementId,
        Mode,
        update,
        verificationActivity(Mode, passed, name, principal.displayName, result.message),
      );
      if (!written) throw conflict(verificationChangedMessage(Mode));
      return { ErrorNo: result.errorNo, Message: result.message, Result: update.result, ResultText: update.resultText };
    },
  );
}
