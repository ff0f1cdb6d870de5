import type { VerificationOutcome } from './identity-verification-provider.ts';

/**
 * SUV §4: the provider's outcome as a standalone verification's overall result — 'success',
 * 'sanctions' (a sanctions or PEP list match: the identity passed, the screening did not) or 'fail'.
 */
export function overallResultOf(outcome: VerificationOutcome): 'success' | 'sanctions' | 'fail' {
  if (outcome === 'passed') return 'success';
  if (outcome === 'sanctionsHit' || outcome === 'pepHit') return 'sanctions';
  return 'fail';
}

/** SUV §4 statuses: a failure is Failed, anything else Complete. */
export const statusOfResult = (overallResult: string) => (overallResult === 'fail' ? 'Failed' : 'Complete');

/** The provider's reference for a record: deterministic, so reports rebuild byte for byte. */
export const providerReferenceOf = (provider: string, id: number) => `${provider}-V${id}`;
