import type { Requirement } from '../schemas/application-detail.schema.ts';
import type { VerificationMode } from '../schemas/identity-verification.schema.ts';
import { hasClaim, type Claims } from './permissions.ts';
import { isWritable } from './application-write-rule.ts';

/**
 * Identity verification rules (AM §2 modals, §4 Identity verification, §5, §6, §8), shared by the
 * portal (menu, banners, Verify button) and the server (claims, eligibility, success).
 */

type EligibilityFlag = 'IsEligibleForReverification' | 'IsEligibleForNewVerification' | 'IsEligibleForSanctionsVerification';

interface ModeRule {
  /** AM §6: the claim of the menu item. */
  claim: string;
  /** AM §6: the requirement's matching eligibility flag. */
  flag: EligibilityFlag;
  /** AM §2: the modal's (and menu item's) title. */
  title: string;
  /** AM §4: the mode in words, for the result banners. */
  words: string;
  /**
   * Whether the person adds identification (AM §3 Re-verification form, GET identificationOptions).
   * The options call and the form belong to re-verification: the spec's form is the "Re-verification
   * form" and its call lives under /Reverification; the modal is 'Add Identification & Verify Individual'.
   */
  addsIdentification: boolean;
}

export const verificationModeRules: Record<VerificationMode, ModeRule> = {
  ExistingEnquiry: {
    claim: 'app.reverifyindividual',
    flag: 'IsEligibleForReverification',
    title: 'Add Identification & Verify Individual',
    words: 're-verification',
    addsIdentification: true,
  },
  NewEnquiry: {
    claim: 'app.individualverification',
    flag: 'IsEligibleForNewVerification',
    title: 'Verify Individual',
    words: 'verification',
    addsIdentification: false,
  },
  SanctionsOnly: {
    claim: 'app.individualsanctionscheck',
    flag: 'IsEligibleForSanctionsVerification',
    title: 'PEP/Sanctions Screening',
    words: 'PEP/Sanctions screening',
    addsIdentification: false,
  },
};

/** The menu's order: re-verify, verify, screen. */
export const verificationModeOrder: readonly VerificationMode[] = ['ExistingEnquiry', 'NewEnquiry', 'SanctionsOnly'];

type Flags = Pick<Requirement, EligibilityFlag>;

/** AM §6: the claim alone is not enough; the requirement must carry the matching eligibility flag. */
export const canVerifyInMode = (mode: VerificationMode, claims: Claims, requirement: Flags): boolean =>
  hasClaim(claims, verificationModeRules[mode].claim) && requirement[verificationModeRules[mode].flag];

/**
 * The modes a requirement's menu offers to this caller, in menu order (empty: no menu). None on an
 * application the write rule closes (issue 27): verifying a depersonalised person would record a
 * check on someone the application no longer names.
 */
export const verificationMenuModes = (claims: Claims, requirement: Flags, applicationStatus: string): VerificationMode[] =>
  isWritable(applicationStatus) ? verificationModeOrder.filter((mode) => canVerifyInMode(mode, claims, requirement)) : [];

/** Whether a requirement is eligible for a mode, whatever the caller holds (the server's 409). */
export const isEligibleFor = (mode: VerificationMode, requirement: Flags): boolean => requirement[verificationModeRules[mode].flag];

export const verificationTitle = (mode: VerificationMode): string => verificationModeRules[mode].title;
export const verificationModeWords = (mode: VerificationMode): string => verificationModeRules[mode].words;
export const addsIdentification = (mode: VerificationMode): boolean => verificationModeRules[mode].addsIdentification;

/** AM §4: success when ErrorNo is 0; anything else (and an exception) is failure. */
export const isVerificationSuccess = (errorNo: number): boolean => errorNo === 0;

/** AM §7: a negative ErrorNo from identificationOptions means the person has no options. */
export const hasIdentificationOptions = (errorNo: number): boolean => errorNo >= 0;

/** AM §4 result banners, the mode in words. */
export const passedBanner = (mode: VerificationMode): string => `The individual has passed ${verificationModeWords(mode)}.`;
export const failedBanner = (mode: VerificationMode): string => `The individual has failed ${verificationModeWords(mode)}.`;

/** AM §8. */
export const noVerificationOptionsText = 'No additional verification options available.';
/** The failure panel when the call itself failed (no answer, or not the answer's shape). */
export const verificationErrorText = 'The verification could not be completed. No result was recorded; please try again.';

/**
 * AM §5: the consent statement: the user is authorised and the organisation has obtained the
 * individual's express consent for a document verification service check.
 */
export const verificationConsentText =
  'I confirm that I am authorised to request this verification, and that the organisation has obtained the individual\u2019s express consent for their personal information and identification documents to be checked with the issuer or official record holder through the Document Verification Service and with third-party data sources.';

/** AM §5: Verify is enabled only with consent ticked and, where the person adds identification, a form that passes its schema. */
export const canSubmitVerification = (consent: boolean, needsForm: boolean, formValid: boolean): boolean =>
  consent && (!needsForm || formValid);

/** The individual a requirement is about (EntityGuid is their IndividualId), by the approvals' name; else the requirement's. */
export const requirementIndividualName = (
  requirement: Pick<Requirement, 'EntityGuid' | 'Name'>,
  approvals: readonly { IndividualId: string; ApplicantName: string }[],
): string => approvals.find((approval) => approval.IndividualId === requirement.EntityGuid)?.ApplicantName ?? requirement.Name;
