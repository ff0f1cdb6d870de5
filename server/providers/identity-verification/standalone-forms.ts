import type { IndividualVerificationType } from '../../../src/schemas/verifications.schema.ts';
import { documentKinds } from '../../../src/domain/verifications.ts';
import { licenceShapes, medicareShapes, passportShapes } from './sandbox-identification-form.ts';

/**
 * The Verifications wizard's two server-defined forms (SUV §2 steps 1 and 2, §3 form model): JSON
 * Schema (draft-07) + rjsf UI schema + initial data. The same schemas are compiled by ajv on the
 * server (checking each verify request before the provider sees it) and, as standalone modules, for
 * the portal (docs/decisions/007). Document shapes are the identity-verification sandbox's own.
 */
export interface StandaloneForm {
  schema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  data: Record<string, unknown>;
}

const typeNames = { IndividualVerification: 'Individual verification (electronic)', BiometricVerification: 'Biometric verification (SMS invite)' } as const;

/** Step 1: the verification type, spelled `VerficationType` as the spec does (SUV §3). */
export function verificationTypeForm(): StandaloneForm {
  return {
    schema: {
      type: 'object',
      required: ['VerficationType'],
      properties: { VerficationType: { type: 'string', title: 'Verification type', enum: Object.keys(typeNames) } },
    },
    uiSchema: { VerficationType: { 'ui:enumNames': Object.values(typeNames), 'ui:placeholder': 'Choose a verification type' } },
    data: {},
  };
}

// No minLength: ajv's standalone code for it needs a runtime helper the browser cannot load (rjsf sends '' as undefined, so 'required' catches blanks).
const text = (title: string, extra: Record<string, unknown> = {}) => ({ type: 'string', title, ...extra });
const optional = (title: string) => ({ type: 'string', title });
const when = (path: string, value: string, then: Record<string, unknown>) => ({ if: { properties: { [path]: { const: value } }, required: [path] }, then });

const australianStates = Object.keys(licenceShapes);
const countries = { AU: 'Australia', NZ: 'New Zealand', GB: 'United Kingdom', US: 'United States', IN: 'India' } as const;

function individualDetailsForm(): StandaloneForm {
  const documents = {
    type: 'object',
    title: 'Identity document',
    required: ['DocumentType'],
    properties: { DocumentType: { type: 'string', title: 'Document', enum: [...documentKinds] } },
    allOf: [
      when('DocumentType', 'DriversLicence', {
        properties: {
          DriversLicence: {
            type: 'object',
            title: 'Driver licence',
            required: ['State', 'LicenceNumber', 'CardNumber'],
            properties: { State: { type: 'string', title: 'State of issue', enum: australianStates }, LicenceNumber: text('Licence number'), CardNumber: text('Card number') },
            allOf: Object.entries(licenceShapes).map(([state, shape]) =>
              // Each shape in words: the portal's error says what the chosen state expects (src/domain/form-shape-hints.ts).
              when('State', state, {
                properties: {
                  LicenceNumber: { pattern: shape.licence, description: `${shape.licenceHelp} (${state} licence)` },
                  CardNumber: { pattern: shape.card, description: `${shape.cardHelp} (${state} licence card number)` },
                },
              }),
            ),
          },
        },
        required: ['DriversLicence'],
      }),
      when('DocumentType', 'MedicareDetails', {
        properties: {
          MedicareDetails: {
            type: 'object',
            title: 'Medicare card',
            required: ['MedicareNumber', 'CardColour', 'ExpiryDate', 'CardReferenceNumber'],
            properties: {
              MedicareNumber: text('Medicare number', { pattern: '^[2-6][0-9]{9}$', description: '10 digits, the first 2 to 6 (Medicare card number)' }),
              CardColour: { type: 'string', title: 'Card colour', enum: Object.keys(medicareShapes) },
              ExpiryDate: text('Expiry'),
              MiddleName: optional('Middle name on card'),
              CardReferenceNumber: text('Card reference number', { pattern: '^[1-9]$', description: 'One digit, 1 to 9: the number beside the name on the card' }),
            },
            // The expiry's shape depends on the card's colour (green: month and year).
            allOf: Object.entries(medicareShapes).map(([colour, shape]) => when('CardColour', colour, { properties: { ExpiryDate: { pattern: shape.expiry, description: `${shape.help} (${colour.toLowerCase()} card)` } } })),
          },
        },
        required: ['MedicareDetails'],
      }),
      when('DocumentType', 'PassportDetails', {
        properties: {
          PassportDetails: {
            type: 'object',
            title: 'Passport',
            required: ['PassportNumber', 'CountryOfIssue'],
            properties: { PassportNumber: text('Passport number'), CountryOfIssue: { type: 'string', title: 'Country of issue', enum: Object.keys(passportShapes) } },
            allOf: Object.entries(passportShapes).map(([country, shape]) => when('CountryOfIssue', country, { properties: { PassportNumber: { pattern: shape.number, description: `${shape.help} (${shape.name})` } } })),
          },
        },
        required: ['PassportDetails'],
      }),
    ],
  };
  return {
    schema: {
      type: 'object',
      required: ['IndividualDetails', 'IndividualDetailsAddress', 'IDDocuments'],
      properties: {
        IndividualDetails: {
          type: 'object',
          title: 'Individual',
          required: ['FirstName', 'LastName', 'DateOfBirth', 'Country'],
          properties: {
            FirstName: text('First name'),
            MiddleName: optional('Middle name'),
            LastName: text('Last name'),
            DateOfBirth: text('Date of birth', { pattern: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$', description: 'Year, month and day, YYYY-MM-DD' }),
            Country: { type: 'string', title: 'Country', enum: Object.keys(countries) },
            Reference: optional('Reference'),
          },
        },
        IndividualDetailsAddress: {
          type: 'object',
          title: 'Address',
          required: ['StreetNumber', 'StreetName', 'Suburb', 'State', 'Postcode'],
          properties: {
            PropertyName: optional('Property name'),
            UnitNumber: optional('Unit number'),
            StreetNumber: text('Street number'),
            StreetName: text('Street name'),
            StreetType: optional('Street type'),
            Suburb: text('Suburb'),
            State: { type: 'string', title: 'State', enum: australianStates },
            Postcode: text('Postcode', { pattern: '^[0-9]{4}$', description: 'Four digits' }),
          },
        },
        IDDocuments: documents,
      },
    },
    uiSchema: {
      IndividualDetails: {
        DateOfBirth: { 'ui:placeholder': 'YYYY-MM-DD', 'ui:help': 'Year, month and day, e.g. 1980-04-23' },
        Country: { 'ui:enumNames': Object.values(countries) },
      },
      IndividualDetailsAddress: { Postcode: { 'ui:help': 'Four digits' } },
      IDDocuments: {
        DocumentType: { 'ui:enumNames': ['Australian driver licence', 'Medicare card', 'Passport'], 'ui:placeholder': 'Choose a document' },
        MedicareDetails: { ExpiryDate: { 'ui:help': 'Green card: YYYY-MM; blue or yellow card: YYYY-MM-DD' } },
        PassportDetails: { CountryOfIssue: { 'ui:enumNames': Object.values(passportShapes).map((shape) => shape.name) } },
      },
    },
    data: { IndividualDetails: { Country: 'AU' }, IndividualDetailsAddress: {}, IDDocuments: {} },
  };
}

function biometricDetailsForm(): StandaloneForm {
  return {
    schema: {
      type: 'object',
      required: ['IndividualDetails'],
      properties: {
        IndividualDetails: {
          type: 'object',
          title: 'Individual',
          required: ['FirstName', 'LastName', 'MobileNumber'],
          properties: {
            FirstName: text('First name'),
            MiddleName: optional('Middle name'),
            LastName: text('Last name'),
            Reference: optional('Reference'),
            MobileNumber: {
              type: 'object',
              title: 'Mobile',
              required: ['PhoneNumber'],
              // SUV §9: an Australian mobile, 10 digits starting 04 once spaces are removed, as the invite form takes it (issue 39 point 20).
              properties: { PhoneNumber: text('Mobile number', { pattern: '^ *0 *4( *[0-9]){8} *$', description: '04 then 8 digits; spaces are allowed' }) },
            },
          },
        },
      },
    },
    uiSchema: { IndividualDetails: { MobileNumber: { PhoneNumber: { 'ui:placeholder': '04xxxxxxxx', 'ui:help': 'The SMS invite goes to this number' } } } },
    data: { IndividualDetails: { MobileNumber: {} } },
  };
}

/** Step 2 by type. */
export function verificationDetailsForm(type: IndividualVerificationType): StandaloneForm {
  return type === 'BiometricVerification' ? biometricDetailsForm() : individualDetailsForm();
}
