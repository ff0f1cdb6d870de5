import type { IdentificationFormDefinition } from './identity-verification-provider.ts';

/**
 * The sandbox's Add Identification form: an Australian driver licence (shape by state), a
 * passport (shape by country) or a Medicare card (expiry shape by card colour). Shapes only: the
 * sandbox checks form, never that a document exists. The same schema validates on the server (ajv)
 * and in the portal (rjsf, with validators the server compiled from it).
 *
 * Conditional fields are `if`/`then` pairs under `allOf` (draft-07): only the chosen document's
 * rules apply, so a wrong licence number is reported once, against its own state's shape. Each
 * field says its shape in its `description`, per state, country or card colour once chosen.
 */

/** Licence number and card number shapes per state (sandbox rules, documented in README). */
export const licenceShapes = {
  ACT: { licence: '^[0-9]{1,10}$', licenceHelp: 'Up to 10 digits', card: '^[A-Z0-9]{10}$', cardHelp: '10 letters or digits' },
  NSW: { licence: '^[A-Z0-9]{6,8}$', licenceHelp: '6 to 8 letters or digits', card: '^[0-9]{10}$', cardHelp: '10 digits' },
  NT: { licence: '^[0-9]{1,10}$', licenceHelp: 'Up to 10 digits', card: '^[0-9]{6,8}$', cardHelp: '6 to 8 digits' },
  QLD: { licence: '^[0-9]{8,9}$', licenceHelp: '8 or 9 digits', card: '^[A-Z0-9]{10}$', cardHelp: '10 letters or digits' },
  SA: { licence: '^[A-Z0-9]{6}$', licenceHelp: '6 letters or digits', card: '^[A-Z0-9]{9}$', cardHelp: '9 letters or digits' },
  TAS: { licence: '^[A-Z0-9]{6,8}$', licenceHelp: '6 to 8 letters or digits', card: '^[A-Z0-9]{9}$', cardHelp: '9 letters or digits' },
  VIC: { licence: '^[0-9]{1,10}$', licenceHelp: 'Up to 10 digits', card: '^[A-Z0-9]{8}$', cardHelp: '8 letters or digits' },
  WA: { licence: '^[0-9]{7}$', licenceHelp: '7 digits', card: '^[A-Z0-9]{8,10}$', cardHelp: '8 to 10 letters or digits' },
} as const;

/** Passport number shapes per issuing country (ISO 3166 alpha-3). */
export const passportShapes = {
  AUS: { name: 'Australia', number: '^[A-Z]{1,2}[0-9]{7}$', help: '1 or 2 letters then 7 digits, e.g. PA1234567' },
  NZL: { name: 'New Zealand', number: '^[A-Z]{2}[0-9]{6}$', help: '2 letters then 6 digits, e.g. LA123456' },
  GBR: { name: 'United Kingdom', number: '^[0-9]{9}$', help: '9 digits' },
  USA: { name: 'United States', number: '^[A-Z0-9]{9}$', help: '9 letters or digits' },
  IND: { name: 'India', number: '^[A-Z][0-9]{7}$', help: '1 letter then 7 digits' },
} as const;

/** Medicare: green cards show the expiry as month and year, blue and yellow ones as a full date. */
export const medicareShapes = {
  Green: { expiry: '^[0-9]{4}-(0[1-9]|1[0-2])$', help: 'Year and month, YYYY-MM' },
  Blue: { expiry: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$', help: 'Full date, YYYY-MM-DD' },
  Yellow: { expiry: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$', help: 'Full date, YYYY-MM-DD' },
} as const;

const text = (title: string, pattern?: string, description?: string) => ({
  type: 'string',
  title,
  ...(pattern ? { pattern } : {}),
  ...(description ? { description } : {}),
});
/** A shape and its words: the portal shows the words as the field's hint and in its error (src/domain/form-shape-hints.ts). */
const shaped = (pattern: string, description: string) => ({ pattern, description });
const choice = (values: readonly string[]) => ({ enum: [...values] });

export const documentTypes = { DriverLicence: 'Australian driver licence', Passport: 'Passport', Medicare: 'Medicare card' } as const;

export function sandboxIdentificationForm(): IdentificationFormDefinition {
  const states = Object.keys(licenceShapes);
  const countries = Object.keys(passportShapes);
  const colours = Object.keys(medicareShapes);
  const when = (conditions: Record<string, string>, then: Record<string, unknown>) => ({
    if: { properties: Object.fromEntries(Object.entries(conditions).map(([key, value]) => [key, { const: value }])), required: Object.keys(conditions) },
    then,
  });
  const schema = {
    type: 'object',
    required: ['DocumentType'],
    properties: {
      DocumentType: { type: 'string', title: 'Identification to add', ...choice(Object.keys(documentTypes)) },
    },
    allOf: [
      when(
        { DocumentType: 'DriverLicence' },
        {
          properties: {
            State: { type: 'string', title: 'State or territory of issue', ...choice(states) },
            LicenceNumber: text('Licence number', undefined, 'As printed on the licence; its shape depends on the state or territory'),
            CardNumber: text('Card number', undefined, 'The card number printed on the licence; its shape depends on the state or territory'),
          },
          required: ['State', 'LicenceNumber', 'CardNumber'],
        },
      ),
      ...Object.entries(licenceShapes).map(([state, shape]) =>
        when(
          { DocumentType: 'DriverLicence', State: state },
          {
            properties: {
              LicenceNumber: shaped(shape.licence, `${shape.licenceHelp} (${state} licence)`),
              CardNumber: shaped(shape.card, `${shape.cardHelp} (${state} licence card number)`),
            },
          },
        ),
      ),
      when(
        { DocumentType: 'Passport' },
        {
          properties: {
            Country: { type: 'string', title: 'Country of issue', ...choice(countries) },
            PassportNumber: text('Passport number', undefined, 'As printed on the photo page; its shape depends on the country'),
          },
          required: ['Country', 'PassportNumber'],
        },
      ),
      ...Object.entries(passportShapes).map(([country, shape]) =>
        when({ DocumentType: 'Passport', Country: country }, { properties: { PassportNumber: shaped(shape.number, `${shape.help} (${shape.name})`) } }),
      ),
      when(
        { DocumentType: 'Medicare' },
        {
          properties: {
            CardColour: { type: 'string', title: 'Card colour', ...choice(colours) },
            CardNumber: text('Card number', '^[2-6][0-9]{9}$', '10 digits, the first 2 to 6 (Medicare card number)'),
            IndividualReferenceNumber: text('Individual reference number', '^[1-9]$', 'One digit, 1 to 9: the number beside the name on the card'),
            Expiry: text('Expiry', undefined, 'Its shape depends on the card colour'),
          },
          required: ['CardColour', 'CardNumber', 'IndividualReferenceNumber', 'Expiry'],
        },
      ),
      ...Object.entries(medicareShapes).map(([colour, shape]) =>
        when({ DocumentType: 'Medicare', CardColour: colour }, { properties: { Expiry: shaped(shape.expiry, `${shape.help} (${colour.toLowerCase()} card)`) } }),
      ),
    ],
  };
  const uiSchema = {
    'ui:order': ['DocumentType', 'State', 'Country', 'CardColour', 'LicenceNumber', 'PassportNumber', 'CardNumber', 'IndividualReferenceNumber', 'Expiry', '*'],
    DocumentType: { 'ui:enumNames': Object.values(documentTypes), 'ui:placeholder': 'Choose identification' },
    Country: { 'ui:enumNames': Object.values(passportShapes).map((shape) => shape.name) },
  };
  return { schema, uiSchema };
}
