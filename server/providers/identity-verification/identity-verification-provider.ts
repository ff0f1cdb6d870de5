import type { VerificationMode } from '../../../src/schemas/identity-verification.schema.ts';

/**
 * Electronic identity verification (AM §4): re-verify a person with identification they add,
 * verify them anew, or screen them against PEP and sanctions lists. The application manager uses
 * it now; the Verifications area (SUV) will use the same provider. A real provider (a document
 * verification service and watch-list vendor) implements this interface; the sandbox is the default.
 */

/** The person as the application holds them. */
export interface Individual {
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD, '' when unknown (depersonalised, or never given). */
  dateOfBirth: string;
  address: string;
}

/** A JSON Schema (draft-07) and its rjsf UI schema: the identification the person may add. */
export interface IdentificationFormDefinition {
  schema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
}

export type VerificationOutcome = 'passed' | 'notVerified' | 'sanctionsHit' | 'pepHit';

export interface VerificationResult {
  outcome: VerificationOutcome;
  /** AM §4: 0 is success, anything else failure. */
  errorNo: number;
  /** What the provider says, for the person and the activity feed. */
  message: string;
}

export interface VerificationRequest {
  mode: VerificationMode;
  individual: Individual;
  /** The Add Identification form's data, already validated against `identificationForm`'s schema. */
  identification?: Record<string, unknown>;
}

export interface IdentityVerificationProvider {
  readonly name: string;
  /** The identification this person may add; undefined when there is none (AM §8 'No additional verification options available.'). */
  identificationForm(individual: Individual): IdentificationFormDefinition | undefined;
  /** Every form `identificationForm` may answer, so the server can compile their validators ahead of the first request. */
  identificationForms(): readonly IdentificationFormDefinition[];
  verify(request: VerificationRequest): Promise<VerificationResult>;
}
