import { verificationPageSize } from '../schemas/verifications.schema.ts';
import type {
  BiometricVerifyRequest,
  IndividualVerificationType,
  IndividualVerifyRequest,
  VerificationService,
} from '../schemas/verifications.schema.ts';
import dayjs from 'dayjs';
import { hasClaim } from './permissions.ts';

/** SUV §6 claims of the Verifications area. */
export const verificationClaims = {
  access: 'entityverification.access',
  company: 'entityverification.company',
  individual: 'entityverification.individual',
} as const;

/** SUV §2: the lookup buttons, each shown with its claim and inert. */
export const lookupButtons = [
  { label: 'Smsf lookup', claim: 'entityverification.smsfLookup' },
  { label: 'ABN lookup', claim: 'entityverification.abnLookup' },
  { label: 'Email age', claim: 'entityverification.emailAge' },
  { label: 'IP address', claim: 'entityverification.ipAddress' },
] as const;

/** SUV §2: the services a person may switch between, Company before Individual. */
export function permittedServices(claims: readonly string[]): VerificationService[] {
  const services: VerificationService[] = [];
  if (hasClaim(claims, verificationClaims.company)) services.push('Company');
  if (hasClaim(claims, verificationClaims.individual)) services.push('Individual');
  return services;
}

/** The list as its address holds it (issue 39 point 10): the tab, the page and the keyword. */
export interface VerificationsAddress {
  service: VerificationService;
  page: number;
  search: string;
}

/**
 * /verifications?service=Individual&page=3&q=smith → the list to show: a tab the claims do not
 * permit is the first permitted one (SUV §2), a page that is not a whole number from 1 is page 1.
 */
export function verificationsAddressOf(services: readonly VerificationService[], params: URLSearchParams): VerificationsAddress {
  const asked = params.get('service');
  const service = services.find((candidate) => candidate === asked) ?? services[0] ?? 'Company';
  const page = Number(params.get('page') ?? '1');
  return { service, page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1, search: (params.get('q') ?? '').trim() };
}

/** The address's query for a list, defaults left out (the first permitted tab, page 1, no keyword), as /users does. */
export function verificationsQueryOf(services: readonly VerificationService[], address: VerificationsAddress): string {
  const params = new URLSearchParams();
  if (address.service !== (services[0] ?? 'Company')) params.set('service', address.service);
  if (address.page !== 1) params.set('page', String(address.page));
  if (address.search) params.set('q', address.search);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * ASIC's ACN check digit: weights 8…1 on the first eight digits, check = (10 − sum mod 10) mod 10.
 * An ACN failing it cannot exist, so it is "not found" without asking the registry.
 */
export function isValidAcn(acn: string): boolean {
  if (!/^[0-9]{9}$/.test(acn)) return false;
  const digits = Array.from(acn, Number);
  const sum = digits.slice(0, 8).reduce((total, digit, index) => total + digit * (8 - index), 0);
  return (10 - (sum % 10)) % 10 === digits[8];
}

/** SUV §5: digits only, at most 11 characters, shown as groups of three ('123 456 789'). */
export function formatAcnInput(raw: string): string {
  const digits = raw.replace(/[^0-9]/g, '').slice(0, 9);
  return (digits.match(/.{1,3}/g) ?? []).join(' ').slice(0, 11);
}

/** SUV §5: Verify is enabled only for three groups of three digits. */
export const isCompleteAcn = (value: string) => /^[0-9]{3} [0-9]{3} [0-9]{3}$/.test(value);

/** SUV §5: spaces are removed before sending. */
export const acnDigits = (value: string) => value.replace(/ /g, '');

/** SUV §4 verification status display; an unknown value shows as it is (ARCHITECTURE §5). */
export function statusText(status: string): string {
  switch (status) {
    case 'Pending':
    case 'pending':
      return 'Pending';
    case 'Complete':
    case 'success':
      return 'Complete';
    case 'Failed':
    case 'fail':
      return 'Failed';
    case 'Successful':
      return 'Successful';
    default:
      return status;
  }
}

export const isPendingStatus = (status: string) => statusText(status) === 'Pending';

/**
 * SUV §4 names Complete and Failed as the completed detail pages; a Successful record is finished
 * too (it has its completion time, result and report, which the list offers), so its page shows
 * them (issue 39 reading, docs/decisions/011-shell-landing-no-access-and-readings.md). Only a Pending record is unfinished.
 */
export const isFinishedStatus = (status: string) => ['Complete', 'Failed', 'Successful'].includes(statusText(status));

/** SUV §4 individual overall result display. */
export function overallResultText(result: string): string {
  if (result === 'success') return 'Pass';
  if (result === 'sanctions') return 'Pass, Sanctions issue';
  return 'Fail';
}

/** List ids carry a letter before the number: C for company, V for individual (SUV §2 /verifications/details/V{n}). */
export const verificationId = (service: VerificationService, id: number) => `${service === 'Company' ? 'C' : 'V'}${id}`;
/** SUV §7: the ref-code and detail calls take the id without its first character. */
export const numericPart = (id: string) => id.slice(1);

/** SUV §8 wizard result messages, by type and by the response's success flag. */
export function verifyResultMessage(type: IndividualVerificationType, succeeded: boolean): string {
  if (type === 'BiometricVerification') return succeeded ? 'Invite link sent via SMS.' : 'Failed to send invite link via SMS.';
  return succeeded ? 'The report has been generated successfully.' : 'The report failed to generate.';
}
export const biometricAdvice = 'We advise you to check back in the next 48 hours.';

/** SUV §4 wizard: Continue needs a chosen type, and the consent unless the type is biometric. */
export const canContinue = (type: string | undefined, consent: boolean) =>
  type === 'BiometricVerification' || (type === 'IndividualVerification' && consent);

/** SUV §2 empty states. */
export const emptyListText = (search: string, service: VerificationService) =>
  search ? `No record was found that matches the keyword ${search}` : `There's no ${service} Verifications`;
export const emptyListHint = 'Click “New Verification” to start.';

// ---- The individual form model (SUV §3) and the verify requests it maps to ----

/** Form field ↔ request field, both directions: the server names a refused request field, the wizard shows it on the form field. */
const individualFields: readonly (readonly [string, string])[] = [
  ['IndividualDetails.FirstName', 'individual.firstName'],
  ['IndividualDetails.MiddleName', 'individual.middleName'],
  ['IndividualDetails.LastName', 'individual.lastName'],
  ['IndividualDetails.DateOfBirth', 'individual.dateOfBirth'],
  ['IndividualDetails.Country', 'individual.countryOfBirth'],
  ['IndividualDetails.Reference', 'requestMetaData.reference'],
  ['IndividualDetailsAddress.PropertyName', 'individual.address.propertyName'],
  ['IndividualDetailsAddress.UnitNumber', 'individual.address.unitNumber'],
  ['IndividualDetailsAddress.StreetNumber', 'individual.address.streetNumber'],
  ['IndividualDetailsAddress.StreetName', 'individual.address.streetName'],
  ['IndividualDetailsAddress.StreetType', 'individual.address.streetType'],
  ['IndividualDetailsAddress.Suburb', 'individual.address.suburb'],
  ['IndividualDetailsAddress.State', 'individual.address.state'],
  ['IndividualDetailsAddress.Postcode', 'individual.address.postcode'],
  ['IDDocuments.MedicareDetails.MedicareNumber', 'medicareCard.cardNumber'],
  ['IDDocuments.MedicareDetails.CardColour', 'medicareCard.cardColour'],
  ['IDDocuments.MedicareDetails.ExpiryDate', 'medicareCard.expiryDate'],
  ['IDDocuments.MedicareDetails.MiddleName', 'medicareCard.middleName'],
  ['IDDocuments.MedicareDetails.CardReferenceNumber', 'medicareCard.referenceNumber'],
  ['IDDocuments.DriversLicence.LicenceNumber', 'driversLicence.Number'],
  ['IDDocuments.DriversLicence.CardNumber', 'driversLicence.cardNumber'],
  ['IDDocuments.DriversLicence.State', 'driversLicence.stateCode'],
  ['IDDocuments.PassportDetails.PassportNumber', 'passport.number'],
  ['IDDocuments.PassportDetails.CountryOfIssue', 'passport.countryCode'],
];
const biometricFields: readonly (readonly [string, string])[] = [
  ['IndividualDetails.FirstName', 'individual.firstName'],
  ['IndividualDetails.MiddleName', 'individual.middleName'],
  ['IndividualDetails.LastName', 'individual.lastName'],
  ['IndividualDetails.Reference', 'requestMetaData.reference'],
  ['IndividualDetails.MobileNumber.PhoneNumber', 'individual.contact.mobileNumber'],
];
const fieldsOf = (type: IndividualVerificationType) => (type === 'BiometricVerification' ? biometricFields : individualFields);

/** The document chosen on the form; its object is the one sent. */
export const documentKinds = ['DriversLicence', 'MedicareDetails', 'PassportDetails'] as const;
const documentRequestKey = { DriversLicence: 'driversLicence', MedicareDetails: 'medicareCard', PassportDetails: 'passport' } as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function get(source: unknown, path: string): unknown {
  let value: unknown = source;
  for (const part of path.split('.')) value = isObject(value) ? value[part] : undefined;
  return value;
}

function set(target: Json, path: string, value: unknown) {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const child = node[part];
    node = isObject(child) ? child : (node[part] = {});
  }
  node[parts[parts.length - 1] ?? ''] = value;
}

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The form's text at `path`, trimmed; undefined when blank (extra and empty data is omitted). */
const field = (form: Json, path: string) => trimmed(get(form, path)) || undefined;

/** The form model → the request (SUV §3): date part only, gender NOTSET, provider 'manual_entry', source 'StandaloneVerification'. */
export function individualVerifyRequest(form: Json): IndividualVerifyRequest {
  const at = (path: string) => field(form, path);
  const chosen = at('IDDocuments.DocumentType');
  const country = at('IndividualDetails.Country') ?? 'AU';
  const request: IndividualVerifyRequest = {
    requestMetaData: { countryCode: country, source: 'StandaloneVerification', verificationType: 'IndividualVerification', reference: at('IndividualDetails.Reference') },
    individual: {
      // Required fields go as '' when blank, so the server names what is missing.
      firstName: at('IndividualDetails.FirstName') ?? '',
      middleName: at('IndividualDetails.MiddleName'),
      lastName: at('IndividualDetails.LastName') ?? '',
      dateOfBirth: (at('IndividualDetails.DateOfBirth') ?? '').slice(0, 10),
      gender: 'NOTSET',
      countryOfBirth: at('IndividualDetails.Country'),
      address: {
        provider: 'manual_entry',
        propertyName: at('IndividualDetailsAddress.PropertyName'),
        unitNumber: at('IndividualDetailsAddress.UnitNumber'),
        streetNumber: at('IndividualDetailsAddress.StreetNumber'),
        streetName: at('IndividualDetailsAddress.StreetName'),
        streetType: at('IndividualDetailsAddress.StreetType'),
        suburb: at('IndividualDetailsAddress.Suburb'),
        state: at('IndividualDetailsAddress.State'),
        countryCode: country,
        postcode: at('IndividualDetailsAddress.Postcode'),
      },
    },
  };
  if (chosen === 'DriversLicence') {
    request.driversLicence = {
      Number: at('IDDocuments.DriversLicence.LicenceNumber') ?? '',
      cardNumber: at('IDDocuments.DriversLicence.CardNumber') ?? '',
      stateCode: at('IDDocuments.DriversLicence.State') ?? '',
    };
  }
  if (chosen === 'MedicareDetails') {
    request.medicareCard = {
      cardNumber: at('IDDocuments.MedicareDetails.MedicareNumber') ?? '',
      cardColour: at('IDDocuments.MedicareDetails.CardColour') ?? '',
      expiryDate: at('IDDocuments.MedicareDetails.ExpiryDate') ?? '',
      middleName: at('IDDocuments.MedicareDetails.MiddleName'),
      referenceNumber: at('IDDocuments.MedicareDetails.CardReferenceNumber') ?? '',
    };
  }
  if (chosen === 'PassportDetails') {
    request.passport = { number: at('IDDocuments.PassportDetails.PassportNumber') ?? '', countryCode: at('IDDocuments.PassportDetails.CountryOfIssue') ?? '' };
  }
  return withoutUndefined(request);
}

/** The biometric form model → its request: country fixed to AU, the mobile without spaces. */
export function biometricVerifyRequest(form: Json): BiometricVerifyRequest {
  const at = (path: string) => field(form, path);
  return withoutUndefined({
    requestMetaData: { countryCode: 'AU', source: 'StandaloneVerification', verificationType: 'BiometricVerification', reference: at('IndividualDetails.Reference') },
    individual: {
      firstName: at('IndividualDetails.FirstName') ?? '',
      middleName: at('IndividualDetails.MiddleName'),
      lastName: at('IndividualDetails.LastName') ?? '',
      contact: { mobileNumber: (at('IndividualDetails.MobileNumber.PhoneNumber') ?? '').replace(/\s+/g, '') },
    },
  });
}

/** Optional fields left out rather than sent as undefined (the request is compared and stored as JSON). */
function withoutUndefined<T>(value: T): T {
  if (!isObject(value)) return value;
  for (const key of Object.keys(value)) {
    if (value[key] === undefined) delete value[key];
    else withoutUndefined(value[key]);
  }
  return value;
}

/** The request → the form model, so the server checks it with the same schema the wizard did. */
export function formModelOf(type: IndividualVerificationType, request: Json): Json {
  const form: Json = {};
  for (const [formPath, requestPath] of fieldsOf(type)) {
    const value = get(request, requestPath);
    if (value !== undefined && value !== '') set(form, formPath, value);
  }
  if (type === 'IndividualVerification') {
    const chosen = documentKinds.find((kind) => get(request, documentRequestKey[kind]) !== undefined);
    if (chosen) set(form, 'IDDocuments.DocumentType', chosen);
    else set(form, 'IDDocuments', {});
  }
  return form;
}

/** A refused form field's request name ('IndividualDetails.FirstName' → 'individual.firstName'). */
export const requestFieldOf = (type: IndividualVerificationType, formPath: string) =>
  fieldsOf(type).find(([path]) => path === formPath)?.[1] ?? formPath;

/** A refused request field's form path, for the wizard to show the error on it. */
export const formFieldOf = (type: IndividualVerificationType, requestPath: string) =>
  fieldsOf(type).find(([, path]) => path === requestPath)?.[0];

/** Bidirectional overrides and isolates: shown back, they could make text read differently from what it is. */
const directionControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * User text shown back (ARCHITECTURE §3): direction controls removed and trimmed; '' stays '' (a
 * cleared reference code), anything else must keep a visible character (undefined when it does not).
 */
export function shownText(value: string): string | undefined {
  const cleaned = value.replace(directionControls, '').trim();
  if (cleaned === '') return value === '' || value.trim() === '' ? '' : undefined;
  return /[^\s\p{C}\p{Z}]/u.test(cleaned) ? cleaned : undefined;
}

/** The calendar date 'YYYY-MM-DD' in `timeZone` at `now` (a tenant's zone on the server, the browser's in the wizard). */
export const calendarDateIn = (timeZone: string | undefined, now = new Date()): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

/** 'YYYY-MM-DD' naming a day that exists: no 30 February, and 29 February only in a leap year. */
export function isCalendarDate(value: string): boolean {
  const match = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Date.UTC rolls an impossible day into the next month; a date that exists reads back unchanged.
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * SUV §5 "if validation fails the call is not made": a date of birth must exist and be before
 * `today` ('YYYY-MM-DD'). One rule for the wizard (before the call) and the server (before the
 * provider and the record); undefined when it holds. A shape the schema refuses is the schema's.
 */
export function dateOfBirthProblem(value: string, today: string): string | undefined {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value)) return undefined;
  if (!isCalendarDate(value)) return 'is not a date that exists';
  // Same-shaped ISO dates compare as text in calendar order.
  return value < today ? undefined : 'must be a date in the past';
}

/** The wizard's details form: the date-of-birth problem on its form path, {} when none. */
export function detailsFormProblems(formData: Json, today: string): Record<string, string> {
  const dateOfBirth = get(formData, 'IndividualDetails.DateOfBirth');
  const problem = typeof dateOfBirth === 'string' ? dateOfBirthProblem(dateOfBirth.trim(), today) : undefined;
  return problem ? { 'IndividualDetails.DateOfBirth': problem } : {};
}

/** SUV §9: the list shows 'D MMM HH:mm', the detail 'DD MMM YYYY HH:mm' (local time); '' for none. */
export const listDate = (iso: string) => (iso ? dayjs(iso).format('D MMM HH:mm') : '');
export const detailDate = (iso: string | null) => (iso ? dayjs(iso).format('DD MMM YYYY HH:mm') : '');

/** SUV §2 'from - to of total'. */
export function rangeText(page: number, shown: number, total: number): string {
  if (total === 0) return '0 - 0 of 0';
  const from = (page - 1) * verificationPageSize + 1;
  return `${from} - ${from + shown - 1} of ${total}`;
}

/** SUV §3 verification types as a person reads them. */
export const typeText = (type: string) =>
  type === 'IndividualVerification' ? 'Individual' : type === 'BiometricVerification' ? 'Biometric' : type === 'Company' ? 'Company' : type;
