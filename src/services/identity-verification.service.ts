import {
  IdentificationOptionsResponseSchema,
  VerifyResponseSchema,
  type IdentificationOptionsResponse,
  type VerifyRequest,
  type VerifyResponse,
} from '../schemas/identity-verification.schema.ts';
import { loadFormValidators } from './form-validators.service.ts';
import { getJson, postJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;
const segment = (value: string) => encodeURIComponent(value);

/**
 * GET /Reverification/identificationOptions/{applicationGuid}/{individualGuid} (AM §7): the
 * Add Identification form (JSON Schema, UI schema, its compiled validators); a negative ErrorNo
 * means there are none.
 */
export function getIdentificationOptions(
  applicationGuid: string,
  individualGuid: string,
): Promise<IdentificationOptionsResponse> {
  return getJson(
    api(`/Reverification/identificationOptions/${segment(applicationGuid)}/${segment(individualGuid)}`),
    IdentificationOptionsResponseSchema,
  );
}

/** POST /Reverification/verify/{applicationGuid} {IndividualId, Mode, FormData?} (AM §7): ErrorNo 0 is success. */
export function verifyIndividual(applicationGuid: string, request: VerifyRequest): Promise<VerifyResponse> {
  return postJson(api(`/Reverification/verify/${segment(applicationGuid)}`), request, VerifyResponseSchema);
}

/** The options, and the form's compiled validators (the module's default export; undefined without a form). */
export interface LoadedIdentificationOptions {
  response: IdentificationOptionsResponse;
  validators: unknown;
}

/**
 * The options and, when there is a form, its validators, so the form is shown ready to validate. A
 * validators module that cannot load fails the load: the form cannot be checked without it.
 */
export async function loadIdentificationOptions(
  applicationGuid: string,
  individualGuid: string,
): Promise<LoadedIdentificationOptions> {
  const response = await getIdentificationOptions(applicationGuid, individualGuid);
  const validators = response.Data ? await loadFormValidators(response.Data.ValidatorModule) : undefined;
  return { response, validators };
}
