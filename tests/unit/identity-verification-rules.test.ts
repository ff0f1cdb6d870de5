import { describe, expect, it } from 'vitest';
import {
  canSubmitVerification,
  canVerifyInMode,
  failedBanner,
  hasIdentificationOptions,
  isEligibleFor,
  isVerificationSuccess,
  passedBanner,
  verificationMenuModes,
  verificationTitle,
} from '../../src/domain/identity-verification.ts';

const none = { IsEligibleForReverification: false, IsEligibleForNewVerification: false, IsEligibleForSanctionsVerification: false };
const all = { IsEligibleForReverification: true, IsEligibleForNewVerification: true, IsEligibleForSanctionsVerification: true };
const allClaims = ['app.reverifyindividual', 'app.individualverification', 'app.individualsanctionscheck'];

describe('verification menu (AM §6: the claim and the matching eligibility flag)', () => {
  it.each([
    // Each claim alone with its flag alone; each claim with the other flags; each flag with the other claims.
    [['app.reverifyindividual'], { ...none, IsEligibleForReverification: true }, ['ExistingEnquiry']],
    [['app.individualverification'], { ...none, IsEligibleForNewVerification: true }, ['NewEnquiry']],
    [['app.individualsanctionscheck'], { ...none, IsEligibleForSanctionsVerification: true }, ['SanctionsOnly']],
    [['app.reverifyindividual'], { ...all, IsEligibleForReverification: false }, []],
    [['app.individualverification'], { ...all, IsEligibleForNewVerification: false }, []],
    [['app.individualsanctionscheck'], { ...all, IsEligibleForSanctionsVerification: false }, []],
    [allClaims.filter((claim) => claim !== 'app.reverifyindividual'), { ...none, IsEligibleForReverification: true }, []],
    [allClaims.filter((claim) => claim !== 'app.individualverification'), { ...none, IsEligibleForNewVerification: true }, []],
    [allClaims.filter((claim) => claim !== 'app.individualsanctionscheck'), { ...none, IsEligibleForSanctionsVerification: true }, []],
    [allClaims, all, ['ExistingEnquiry', 'NewEnquiry', 'SanctionsOnly']],
    [allClaims, none, []],
    [['view.allapps.instance', 'admin'], all, []],
  ] as const)('claims %j with flags %j offer %j', (claims, flags, modes) => {
    expect(verificationMenuModes(claims, flags, 'Primary edit')).toEqual(modes);
    // Issue 27: a depersonalised or cancelled application offers no verification at all.
    expect(verificationMenuModes(claims, flags, 'Depersonalised')).toEqual([]);
    expect(verificationMenuModes(claims, flags, 'Cancelled')).toEqual([]);
    for (const mode of ['ExistingEnquiry', 'NewEnquiry', 'SanctionsOnly'] as const) {
      expect(canVerifyInMode(mode, claims, flags)).toBe((modes as readonly string[]).includes(mode));
    }
  });

  it.each([
    ['ExistingEnquiry', 'IsEligibleForReverification'],
    ['NewEnquiry', 'IsEligibleForNewVerification'],
    ['SanctionsOnly', 'IsEligibleForSanctionsVerification'],
  ] as const)('%s is eligible by %s only', (mode, flag) => {
    expect(isEligibleFor(mode, { ...none, [flag]: true })).toBe(true);
    expect(isEligibleFor(mode, { ...all, [flag]: false })).toBe(false);
  });
});

describe('texts (AM §2 titles, §4 banners)', () => {
  it.each([
    ['ExistingEnquiry', 'Add Identification & Verify Individual', 'The individual has passed re-verification.', 'The individual has failed re-verification.'],
    ['NewEnquiry', 'Verify Individual', 'The individual has passed verification.', 'The individual has failed verification.'],
    ['SanctionsOnly', 'PEP/Sanctions Screening', 'The individual has passed PEP/Sanctions screening.', 'The individual has failed PEP/Sanctions screening.'],
  ] as const)('%s: %s', (mode, title, passed, failed) => {
    expect(verificationTitle(mode)).toBe(title);
    expect(passedBanner(mode)).toBe(passed);
    expect(failedBanner(mode)).toBe(failed);
  });
});

describe('results and the Verify button (AM §4, §5, §7)', () => {
  it.each([
    [0, true],
    [1, false],
    [-1, false],
    [2, false],
  ])('ErrorNo %i is success: %s', (errorNo, success) => expect(isVerificationSuccess(errorNo)).toBe(success));

  it.each([
    [0, true],
    [1, true],
    [-1, false],
    [-2, false],
  ])('options ErrorNo %i has options: %s', (errorNo, has) => expect(hasIdentificationOptions(errorNo)).toBe(has));

  it.each([
    [true, false, false, true],
    [false, false, true, false],
    [true, true, true, true],
    [true, true, false, false],
    [false, true, true, false],
  ])('consent %s, form needed %s, form valid %s: Verify enabled %s', (consent, needsForm, valid, enabled) =>
    expect(canSubmitVerification(consent, needsForm, valid)).toBe(enabled));
});
