import { describe, expect, it } from 'vitest';
import {
  emptyInviteDraft,
  inviteDraftComplete,
  inviteErrors,
  mobileNumberToSend,
  needsAdditionalDetails,
  phoneError,
  phoneInputOf,
  type InviteDraft,
} from '../../src/domain/invite-form.ts';

/** SUV §5 messages, written here as the spec spells them. */
const required = 'This is a required field.';
const invalidPhone = 'Please enter valid phone';

const valid: InviteDraft = { firstName: 'Ava', lastName: 'Lee', email: 'ava@example.test', mobile: '0412 345 678', country: 'au', roleId: 3 };

describe('the invite phone rule (SUV §5)', () => {
  it('empty, or only spaces: required', () => {
    expect(phoneError('', 'au', false)).toBe(required);
    expect(phoneError('   ', 'au', true)).toBe(required);
  });

  it.each([
    ['0412345678', undefined],
    ['0412 345 678', undefined],
    ['04 1234 5678', undefined],
    ['041234567', invalidPhone], // 9 digits
    ['04123456789', invalidPhone], // 11 digits
    ['0312345678', invalidPhone], // 10 digits, not 04
    ['4123456789', invalidPhone],
    ['61412345678', invalidPhone],
  ])('Australian %s: %s', (mobile, error) => expect(phoneError(mobile, 'au', false)).toBe(error));

  it('AustralianMobileNumberOnly applies the 04 / 10-digit rule whatever country is chosen', () => {
    expect(phoneError('0412345678', 'gb', true)).toBeUndefined();
    expect(phoneError('07400123456', 'gb', true)).toBe(invalidPhone);
  });

  it('another country is checked by its own mobile numbers, not by the 04 rule', () => {
    expect(phoneError('07400123456', 'gb', false)).toBeUndefined();
    expect(phoneError('0412345678', 'gb', false)).toBe(invalidPhone);
    expect(phoneError('0412345678', 'zz', false)).toBe(invalidPhone);
  });

  it('the input keeps only digits and spaces', () => expect(phoneInputOf('+61 (04)12-345a678')).toBe('61 0412345678'));
});

describe('MobileNumber as sent (SUV §3)', () => {
  it('Australian: spaces removed', () => {
    expect(mobileNumberToSend('0412 345 678', 'au', false)).toBe('0412345678');
    expect(mobileNumberToSend('0412 345 678', 'gb', true)).toBe('0412345678');
  });

  it('another country: in international form', () => expect(mobileNumberToSend('07400 123 456', 'gb', false)).toBe('+447400123456'));
});

describe('the invite form (SUV §5)', () => {
  it('a complete draft has no errors and may be sent', () => {
    expect(inviteErrors(valid, false)).toEqual({ firstName: undefined, lastName: undefined, email: undefined, mobile: undefined });
    expect(inviteDraftComplete(valid, false)).toBe(true);
  });

  it('the empty form: every field required', () =>
    expect(inviteErrors(emptyInviteDraft, false)).toEqual({ firstName: required, lastName: required, email: required, mobile: required }));

  // One field wrong at a time: each rule alone stops the send.
  it.each<[Partial<InviteDraft>, keyof ReturnType<typeof inviteErrors> | 'role', string | undefined]>([
    [{ firstName: '  ' }, 'firstName', required],
    [{ lastName: '' }, 'lastName', required],
    [{ email: '' }, 'email', required],
    [{ email: 'ava@example' }, 'email', 'Please enter a valid email address.'],
    [{ email: 'ava example@test.au' }, 'email', 'Please enter a valid email address.'],
    [{ mobile: '' }, 'mobile', required],
    [{ mobile: '0312 345 678' }, 'mobile', invalidPhone],
    [{ roleId: undefined }, 'role', undefined],
  ])('%o: %s %s, and Send stays disabled', (change, field, message) => {
    const draft = { ...valid, ...change };
    if (field !== 'role') expect(inviteErrors(draft, false)[field]).toBe(message);
    expect(inviteDraftComplete(draft, false)).toBe(false);
  });

  it('names and e-mail are trimmed before they are judged', () => expect(inviteDraftComplete({ ...valid, firstName: ' Ava ', email: ' ava@example.test ' }, false)).toBe(true));
});

describe('Additional Details (SUV §2)', () => {
  it.each([
    ['Admin Staff (Full Access)', true, true],
    ['Admin Staff (Read Only)', true, true],
    ['Admin Staff (Read Only)', false, false],
    ['Adviser', true, false],
    [undefined, true, false],
  ])('role %s, inviter may modify access %s: Next %s', (role, canModify, next) => expect(needsAdditionalDetails(role, canModify)).toBe(next));
});
