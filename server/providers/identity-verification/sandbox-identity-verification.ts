import type {
  IdentityVerificationProvider,
  Individual,
  VerificationRequest,
  VerificationResult,
} from './identity-verification-provider.ts';
import { sandboxIdentificationForm } from './sandbox-identification-form.ts';

/**
 * The deterministic sandbox (the default provider), documented in README "Identity verification
 * sandbox": like a real provider's test data, outcomes follow from the name alone.
 *
 * - Surname `Fail` (any case): not verified, in re-verification and verification.
 * - A name on the sample sanctions list: a sanctions hit, in every mode.
 * - A name on the sample PEP list: a PEP hit, in every mode.
 * - Everyone else passes. Added identification is checked for shape by the form's schema.
 * - A person with no date of birth (depersonalised) has no identification options.
 */
export const failingSurname = 'Fail';
export const sampleSanctionsList = ['Mallory Embargo', 'Victor Blocklist'] as const;
export const samplePepList = ['Penelope Minister', 'Percival Senator'] as const;

/** Sandbox answer codes: 0 passed (AM §4), else the reason. */
export const sandboxErrorNo = { passed: 0, notVerified: 1, sanctionsHit: 2, pepHit: 3 } as const;

const normalise = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();
const fullName = (individual: Individual) => normalise(`${individual.firstName} ${individual.lastName}`);
const onList = (list: readonly string[], individual: Individual) => list.some((name) => normalise(name) === fullName(individual));

export function createSandboxIdentityVerification(): IdentityVerificationProvider {
  const form = sandboxIdentificationForm();
  return {
    name: 'sandbox',
    identificationForm: (individual) => (individual.dateOfBirth === '' ? undefined : form),
    identificationForms: () => [form],
    verify: async ({ mode, individual }: VerificationRequest): Promise<VerificationResult> => {
      if (onList(sampleSanctionsList, individual)) {
        return { outcome: 'sanctionsHit', errorNo: sandboxErrorNo.sanctionsHit, message: 'Possible match on a sanctions list.' };
      }
      if (onList(samplePepList, individual)) {
        return { outcome: 'pepHit', errorNo: sandboxErrorNo.pepHit, message: 'Possible match on a politically exposed persons list.' };
      }
      if (mode !== 'SanctionsOnly' && normalise(individual.lastName) === normalise(failingSurname)) {
        return { outcome: 'notVerified', errorNo: sandboxErrorNo.notVerified, message: 'The identity could not be verified from the details given.' };
      }
      return {
        outcome: 'passed',
        errorNo: sandboxErrorNo.passed,
        message: mode === 'SanctionsOnly' ? 'No PEP or sanctions match.' : 'The identity was verified.',
      };
    },
  };
}
