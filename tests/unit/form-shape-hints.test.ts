import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { failedShapeDescription, shapeErrorMessage, shapeHints, unknownShapeMessage } from '../../src/domain/form-shape-hints.ts';
import {
  licenceShapes,
  medicareShapes,
  passportShapes,
  sandboxIdentificationForm,
} from '../../server/providers/identity-verification/sandbox-identification-form.ts';
import { verificationDetailsForm } from '../../server/providers/identity-verification/standalone-forms.ts';

const { schema } = sandboxIdentificationForm();
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

/** The pattern errors a validator reports for `data`, as the portal words them. */
function shapeErrors(data: Record<string, unknown>): Record<string, string> {
  validate(data);
  return Object.fromEntries(
    (validate.errors ?? []).filter((error) => error.keyword === 'pattern').map((error) => [error.instancePath, shapeErrorMessage(schema, `#${error.schemaPath.slice(1)}`)]),
  );
}

describe('shape hints of the Add Identification form (issue 32)', () => {
  it('says the licence shapes of the chosen state, and mentions no Medicare card on a licence', () => {
    for (const [state, shape] of Object.entries(licenceShapes)) {
      const hints = shapeHints(schema, { DocumentType: 'DriverLicence', State: state });
      expect(hints.LicenceNumber).toBe(`${shape.licenceHelp} (${state} licence)`);
      expect(hints.CardNumber).toBe(`${shape.cardHelp} (${state} licence card number)`);
      expect(Object.values(hints).join(' ')).not.toMatch(/Medicare/);
      expect(shapeErrors({ DocumentType: 'DriverLicence', State: state, LicenceNumber: '!', CardNumber: '!' })).toEqual({
        '/LicenceNumber': `Expected: ${shape.licenceHelp} (${state} licence).`,
        '/CardNumber': `Expected: ${shape.cardHelp} (${state} licence card number).`,
      });
    }
    // Before a state is chosen the hint says the shape depends on it, not on anything else.
    expect(shapeHints(schema, { DocumentType: 'DriverLicence' }).LicenceNumber).toMatch(/depends on the state or territory/);
  });

  it('says the passport shape of the chosen country', () => {
    for (const [country, shape] of Object.entries(passportShapes)) {
      expect(shapeHints(schema, { DocumentType: 'Passport', Country: country }).PassportNumber).toBe(`${shape.help} (${shape.name})`);
      expect(shapeErrors({ DocumentType: 'Passport', Country: country, PassportNumber: '!' })).toEqual({ '/PassportNumber': `Expected: ${shape.help} (${shape.name}).` });
    }
  });

  it('says the Medicare expiry of the chosen card colour, and the card number and reference shapes', () => {
    for (const [colour, shape] of Object.entries(medicareShapes)) {
      const hints = shapeHints(schema, { DocumentType: 'Medicare', CardColour: colour });
      expect(hints.Expiry).toBe(`${shape.help} (${colour.toLowerCase()} card)`);
      expect(hints.CardNumber).toMatch(/^10 digits/);
      const errors = shapeErrors({ DocumentType: 'Medicare', CardColour: colour, CardNumber: '1', IndividualReferenceNumber: '0', Expiry: '2030' });
      expect(errors['/Expiry']).toBe(`Expected: ${shape.help} (${colour.toLowerCase()} card).`);
      expect(errors['/CardNumber']).toBe('Expected: 10 digits, the first 2 to 6 (Medicare card number).');
      expect(errors['/IndividualReferenceNumber']).toMatch(/^Expected: One digit, 1 to 9/);
    }
  });

  it('falls back to a plain message where the schema gives no words', () => {
    expect(shapeErrorMessage(schema, undefined)).toBe(unknownShapeMessage);
    expect(shapeErrorMessage({ properties: { A: { pattern: 'x' } } }, '#/properties/A/pattern')).toBe(unknownShapeMessage);
    expect(failedShapeDescription(schema, '#/allOf/99/then/properties/X/pattern')).toBeUndefined();
    expect(shapeHints(undefined, {})).toEqual({});
  });
});

describe('shape errors of the Verifications wizard (issue 32)', () => {
  it('says the shape the chosen state expects, however deep the field sits', () => {
    const wizard = verificationDetailsForm('IndividualVerification').schema;
    const check = new Ajv({ allErrors: true, strict: false }).compile(wizard);
    check({ IDDocuments: { DocumentType: 'DriversLicence', DriversLicence: { State: 'NSW', LicenceNumber: '!', CardNumber: '1234567890' } }, IndividualDetailsAddress: { Postcode: '12' } });
    const messages = Object.fromEntries(
      (check.errors ?? []).filter((error) => error.keyword === 'pattern').map((error) => [error.instancePath, shapeErrorMessage(wizard, error.schemaPath)]),
    );
    expect(messages['/IDDocuments/DriversLicence/LicenceNumber']).toBe(`Expected: ${licenceShapes.NSW.licenceHelp} (NSW licence).`);
    expect(messages['/IndividualDetailsAddress/Postcode']).toBe('Expected: Four digits.');
  });
});
