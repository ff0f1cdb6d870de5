import * as z from 'zod/mini';

/**
 * The Verifications area's API (SUV §3, §7: `/entity-verification/api/v1/...`). Wire names exactly
 * as the spec spells them — snake case in the lists, camel case elsewhere, and the form field
 * `VerficationType` with its missing 'i'. Shared by the portal's services and the server's routes.
 */

export const verificationServices = ['Company', 'Individual'] as const;
export const VerificationServiceSchema = z.enum(verificationServices);
export type VerificationService = z.infer<typeof VerificationServiceSchema>;

/** SUV §3: the two individual verification types. */
export const individualVerificationTypes = ['IndividualVerification', 'BiometricVerification'] as const;
export const IndividualVerificationTypeSchema = z.enum(individualVerificationTypes);
export type IndividualVerificationType = z.infer<typeof IndividualVerificationTypeSchema>;

/** SUV §4: every status value the records carry (displayed through src/domain/verifications.ts). */
export const verificationStatuses = ['Pending', 'Complete', 'Failed', 'Successful', 'pending', 'success', 'fail'] as const;

/** SUV §9: the grid shows 10 rows a page. */
export const verificationPageSize = 10;

const text = (name: string, max: number) => z.string().check(z.maxLength(max, `${name}: at most ${max} characters`));

/** GET /{service}?Page={n}&search={text}. */
export const VerificationListParamsSchema = z.object({ service: VerificationServiceSchema });
export const VerificationListQuerySchema = z.object({
  Page: z._default(z.coerce.number().check(z.int('Page: must be a whole number'), z.minimum(1, 'Page: must be 1 or more'), z.maximum(100_000, 'Page: at most 100000')), 1),
  search: z._default(text('search', 200), ''),
});

export const CompanyVerificationRowSchema = z.object({
  id: z.string(),
  company: z.object({ name: z.string(), companyNumber: z.string() }),
  /** ISO 8601; shown 'D MMM HH:mm' (SUV §9). */
  date: z.string(),
  requester_name: z.string(),
  status: z.string(),
  report_link: z.string(),
  ref_code: z.string(),
});
export type CompanyVerificationRow = z.infer<typeof CompanyVerificationRowSchema>;

export const IndividualVerificationRowSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  date: z.string(),
  requester_name: z.string(),
  type: z.string(),
  status: z.string(),
  report_link: z.string(),
  ref_code: z.string(),
});
export type IndividualVerificationRow = z.infer<typeof IndividualVerificationRowSchema>;

export const VerificationListResponseSchema = z.object({
  responses: z.array(z.union([CompanyVerificationRowSchema, IndividualVerificationRowSchema])),
  totalCount: z.int(),
});
export const CompanyListResponseSchema = z.object({ responses: z.array(CompanyVerificationRowSchema), totalCount: z.int() });
export const IndividualListResponseSchema = z.object({ responses: z.array(IndividualVerificationRowSchema), totalCount: z.int() });
export type CompanyListResponse = z.infer<typeof CompanyListResponseSchema>;
export type IndividualListResponse = z.infer<typeof IndividualListResponseSchema>;

/** SUV §5: nine digits once the spaces are removed. */
export const CompanyVerifyRequestSchema = z.object({
  CompanyNumber: z.string().check(z.regex(/^[0-9]{9}$/, 'CompanyNumber: must be nine digits')),
});
export const CompanyLookupResponseSchema = z.object({ companyNumber: z.string(), companyName: z.string() });
export type CompanyLookupResponse = z.infer<typeof CompanyLookupResponseSchema>;

export const GenerateReportRequestSchema = z.object({
  company_number: z.string().check(z.regex(/^[0-9]{9}$/, 'company_number: must be nine digits')),
  company_name: text('company_name', 300),
});
export const GenerateReportResponseSchema = z.object({ reportLink: z.string() });
export type GenerateReportResponse = z.infer<typeof GenerateReportResponseSchema>;

/** POST /{company|individual}/{id without its first character}/ref-code. */
export const RefCodeParamsSchema = z.object({
  kind: z.enum(['company', 'individual']),
  // Not `id`: a write route's `id` names an application (server/api/application-write-rule.ts).
  recordNumber: z.string().check(z.regex(/^[0-9]{1,15}$/, 'id: must be the numeric part of a verification id')),
});
/** SUV §5: no validation beyond a length bound (and the server's shown-text rule). */
/** The longest reference code kept (SUV §5 sets no rule; the modal says this limit before Confirm). */
export const refCodeMaxLength = 100;
export const RefCodeRequestSchema = z.object({ ref_code: text('ref_code', refCodeMaxLength) });
export const RefCodeResponseSchema = z.object({ ref_code: z.string() });

/** SUV §3 form definition: each part a JSON string. `validatorModule` is additive (docs/decisions/007). */
export const FormDefinitionResponseSchema = z.object({
  jsonSchema: z.string(),
  uiSchema: z.string(),
  data: z.string(),
  validatorModule: z.string(),
});
export type FormDefinitionResponse = z.infer<typeof FormDefinitionResponseSchema>;
/** A form definition as the portal holds it: the JSON strings parsed, and the validators module's functions. */
export interface LoadedForm {
  schema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  data: Record<string, unknown>;
  validatorModule: string;
  validators: unknown;
}

export const FormDetailsQuerySchema = z.object({ verificationType: IndividualVerificationTypeSchema });
export const FormValidatorParamsSchema = z.object({
  file: z.string().check(z.regex(/^[0-9a-f]{16}\.js$/, 'file: must be a form validator module name')),
});

const optionalText = (name: string, max = 100) => z.optional(text(name, max));

export const VerifyAddressSchema = z.object({
  provider: z.literal('manual_entry'),
  propertyName: optionalText('address.propertyName'),
  unitNumber: optionalText('address.unitNumber'),
  streetNumber: optionalText('address.streetNumber'),
  streetName: optionalText('address.streetName'),
  streetType: optionalText('address.streetType'),
  suburb: optionalText('address.suburb'),
  state: optionalText('address.state'),
  countryCode: optionalText('address.countryCode'),
  postcode: optionalText('address.postcode'),
});

/** SUV §3 Individual verify request (IndividualVerification). */
export const IndividualVerifyRequestSchema = z.object({
  requestMetaData: z.object({
    countryCode: text('requestMetaData.countryCode', 3),
    source: z.literal('StandaloneVerification'),
    verificationType: z.literal('IndividualVerification'),
    reference: optionalText('requestMetaData.reference'),
  }),
  individual: z.object({
    firstName: text('individual.firstName', 100),
    middleName: optionalText('individual.middleName'),
    lastName: text('individual.lastName', 100),
    dateOfBirth: z.string().check(z.regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, 'individual.dateOfBirth: must be a date (YYYY-MM-DD)')),
    address: VerifyAddressSchema,
    gender: z.literal('NOTSET'),
    countryOfBirth: optionalText('individual.countryOfBirth', 3),
  }),
  driversLicence: z.optional(z.object({ Number: text('driversLicence.Number', 20), cardNumber: text('driversLicence.cardNumber', 20), stateCode: text('driversLicence.stateCode', 3) })),
  medicareCard: z.optional(
    z.object({
      cardColour: text('medicareCard.cardColour', 10),
      cardNumber: text('medicareCard.cardNumber', 20),
      expiryDate: text('medicareCard.expiryDate', 10),
      middleName: optionalText('medicareCard.middleName'),
      referenceNumber: text('medicareCard.referenceNumber', 2),
    }),
  ),
  passport: z.optional(z.object({ countryCode: text('passport.countryCode', 3), number: text('passport.number', 20) })),
});
export type IndividualVerifyRequest = z.infer<typeof IndividualVerifyRequestSchema>;

/** SUV §3 Biometric request: country fixed to AU, and a mobile for the SMS invite. */
export const BiometricVerifyRequestSchema = z.object({
  requestMetaData: z.object({
    countryCode: z.literal('AU'),
    source: z.literal('StandaloneVerification'),
    verificationType: z.literal('BiometricVerification'),
    reference: optionalText('requestMetaData.reference'),
  }),
  individual: z.object({
    firstName: text('individual.firstName', 100),
    middleName: optionalText('individual.middleName'),
    lastName: text('individual.lastName', 100),
    contact: z.object({ mobileNumber: text('individual.contact.mobileNumber', 20) }),
  }),
});
export type BiometricVerifyRequest = z.infer<typeof BiometricVerifyRequestSchema>;

export const VerifyRequestSchema = z.union([IndividualVerifyRequestSchema, BiometricVerifyRequestSchema]);
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>;

/** SUV §3 verify response; `responseSucceeded` drives the wizard's message (SUV §8). */
export const VerifyResponseSchema = z.object({
  requestId: z.string(),
  requestDateTime: z.string(),
  responseSucceeded: z.boolean(),
  overallResult: z.string(),
  provider: z.string(),
  providerReference: z.string(),
  reportLink: z.string(),
});
export type VerifyResponse = z.infer<typeof VerifyResponseSchema>;

export const DetailParamsSchema = z.object({ id: z.string().check(z.regex(/^[0-9]{1,15}$/, 'id: must be a numeric verification id')) });
export const ReportParamsSchema = z.object({ kind: z.enum(['company', 'individual']), id: z.string().check(z.regex(/^[0-9]{1,15}$/, 'id: must be a numeric verification id')) });

/** SUV §3 Verification detail response. Dates ISO 8601 (null when not yet); shown 'DD MMM YYYY HH:mm'. */
export const VerificationDetailSchema = z.object({
  applicationId: z.string(),
  applicantName: z.string(),
  applicantMobileNumber: z.string(),
  requestStatus: z.string(),
  requester: z.string(),
  requestDateUtc: z.string(),
  responseDateUtc: z.nullable(z.string()),
  requestType: z.string(),
  referenceNumber: z.string(),
  responseResult: z.string(),
  reportLink: z.string(),
  reportName: z.string(),
});
export type VerificationDetail = z.infer<typeof VerificationDetailSchema>;
