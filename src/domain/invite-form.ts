import { getCountries, isSupportedCountry, isValidPhoneNumber, parsePhoneNumberWithError } from 'libphonenumber-js/mobile';
import { isAdminStaffRole } from './user-status.ts';
import { isAustralianMobile } from './australian-mobile.ts';

/**
 * SUV §2/§5 the Invite User form's rules. This module carries the phone metadata
 * (libphonenumber-js, mobile numbers only): only the invite modal, loaded when opened, imports it.
 */
export const requiredText = 'This is a required field.';
export const invalidPhoneText = 'Please enter valid phone';
export const invalidEmailText = 'Please enter a valid email address.';

export interface InviteDraft {
  firstName: string;
  lastName: string;
  email: string;
  mobile: string;
  /** ISO 3166 alpha-2, lower case as the spec names it ('au'). */
  country: string;
  roleId: number | undefined;
}

export const emptyInviteDraft: InviteDraft = { firstName: '', lastName: '', email: '', mobile: '', country: 'au', roleId: undefined };

/** SUV §2: the phone input accepts only digits and spaces. */
export const phoneInputOf = (typed: string) => typed.replace(/[^\d ]/g, '');

const digitsOf = (mobile: string) => mobile.replace(/\s/g, '');

/**
 * SUV §5 the phone rule: required; for Australian numbers (or in Australian-only mode) a number
 * starting 04 with exactly 10 digits; other countries through libphonenumber's mobile metadata.
 */
export function phoneError(mobile: string, country: string, australianOnly: boolean): string | undefined {
  const digits = digitsOf(mobile);
  if (digits === '') return requiredText;
  // The input holds digits and spaces only (phoneInputOf), so this is the 04 form.
  if (australianOnly || country === 'au') return isAustralianMobile(digits) ? undefined : invalidPhoneText;
  const code = country.toUpperCase();
  return isSupportedCountry(code) && isValidPhoneNumber(digits, code) ? undefined : invalidPhoneText;
}

/** SUV §3: MobileNumber with spaces removed; another country's number in international form. */
export function mobileNumberToSend(mobile: string, country: string, australianOnly: boolean): string {
  const digits = digitsOf(mobile);
  if (australianOnly || country === 'au') return digits;
  const code = country.toUpperCase();
  if (!isSupportedCountry(code)) return digits;
  try {
    return parsePhoneNumberWithError(digits, code).number;
  } catch {
    return digits;
  }
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface InviteErrors {
  firstName?: string;
  lastName?: string;
  email?: string;
  mobile?: string;
}

/** SUV §5: names, e-mail and mobile required, the e-mail valid, the phone by its rule. */
export function inviteErrors(draft: InviteDraft, australianOnly: boolean): InviteErrors {
  return {
    firstName: draft.firstName.trim() === '' ? requiredText : undefined,
    lastName: draft.lastName.trim() === '' ? requiredText : undefined,
    email: draft.email.trim() === '' ? requiredText : emailPattern.test(draft.email.trim()) ? undefined : invalidEmailText,
    mobile: phoneError(draft.mobile, draft.country, australianOnly),
  };
}

/** SUV §2: Send is possible when both forms are valid and a role is chosen. */
export const inviteDraftComplete = (draft: InviteDraft, australianOnly: boolean): boolean =>
  draft.roleId !== undefined && Object.values(inviteErrors(draft, australianOnly)).every((error) => error === undefined);

/** SUV §2: an inviter who may modify access, choosing an admin staff role, goes through Additional Details. */
export const needsAdditionalDetails = (roleName: string | undefined, canModifyAccess: boolean): boolean =>
  canModifyAccess && roleName !== undefined && isAdminStaffRole(roleName);

/** The country selector's choices: every country the phone metadata knows, by name. */
export function phoneCountries(): { code: string; name: string }[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  return getCountries()
    .map((code) => ({ code: code.toLowerCase(), name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
