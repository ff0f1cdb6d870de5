import * as z from 'zod/mini';

/**
 * Identity verification inside an application (AM §3 Re-verification form, §4 Identity
 * verification, §7 `/Reverification/...`). Wire names as the spec spells them (PascalCase). Shared
 * by the portal's services and the server's routes.
 */

/** AM §4: ExistingEnquiry (re-verification), NewEnquiry (verification), SanctionsOnly (PEP/Sanctions screening). */
export const verificationModes = ['ExistingEnquiry', 'NewEnquiry', 'SanctionsOnly'] as const;
export const VerificationModeSchema = z.enum(verificationModes);
export type VerificationMode = z.infer<typeof VerificationModeSchema>;

const guid = (name: string) =>
  z.string().check(z.regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, `${name}: must be a guid`));

/** A JSON Schema or UI schema object as the server defines it; the portal hands it to rjsf as is. */
const JsonObjectSchema = z.record(z.string(), z.unknown());

/** AM §3 Re-verification form: the identification the person may add, as JSON Schema + rjsf UI schema. */
export const IdentificationFormSchema = z.object({
  FormSchema: JsonObjectSchema,
  UISchema: JsonObjectSchema,
  /**
   * Same-origin address of the form schema's validators, compiled by the server's ajv ahead of
   * time: the portal's Content-Security-Policy has no 'unsafe-eval', so ajv cannot compile in the
   * browser (docs/decisions/007).
   */
  ValidatorModule: z.string(),
});
export type IdentificationForm = z.infer<typeof IdentificationFormSchema>;

/** GET /api/Reverification/identificationOptions/{applicationGuid}/{individualGuid}. */
export const IdentificationOptionsParamsSchema = z.object({
  applicationGuid: guid('applicationGuid'),
  individualGuid: guid('individualGuid'),
});

/** AM §7: a negative ErrorNo means there are no options (Data is then null). */
export const IdentificationOptionsResponseSchema = z.object({
  ErrorNo: z.int(),
  Message: z.string(),
  Data: z.nullable(IdentificationFormSchema),
});
export type IdentificationOptionsResponse = z.infer<typeof IdentificationOptionsResponseSchema>;

/** GET /api/Reverification/formValidator/{hash}.js: the form's compiled validators (ValidatorModule). */
export const FormValidatorParamsSchema = z.object({
  file: z.string().check(z.regex(/^[0-9a-f]{16}\.js$/, 'file: must be a form validator module name')),
});

export const VerifyParamsSchema = z.object({ applicationGuid: guid('applicationGuid') });

/** POST /api/Reverification/verify/{applicationGuid} (ARCHITECTURE §5). FormData: the Add Identification form's data. */
export const VerifyRequestSchema = z.object({
  IndividualId: guid('IndividualId'),
  Mode: VerificationModeSchema,
  FormData: z.optional(JsonObjectSchema),
});
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>;

/** AM §4/§7: ErrorNo 0 is success; the requirement as it now stands comes back with it. */
export const VerifyResponseSchema = z.object({
  ErrorNo: z.int(),
  Message: z.string(),
  Result: z.int(),
  ResultText: z.string(),
});
export type VerifyResponse = z.infer<typeof VerifyResponseSchema>;
