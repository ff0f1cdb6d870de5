import { describe, expect, it } from 'vitest';
import {
  canAddLabel,
  canAssign,
  canCreateLabels,
  canSaveField,
  canSetLabel,
  clampLabelText,
  fieldProblem,
  isAtLabelLimit,
  labelCountText,
  signingModeCode,
} from '../../src/domain/application-editors.ts';

/** AM §5 and §6 rules of the detail screen's editors, one condition at a time. */
describe('label picker rules', () => {
  it('counts as n / max and is at the limit from the maximum on', () => {
    expect(labelCountText(19, 20)).toBe('19 / 20');
    expect(isAtLabelLimit(19, 20)).toBe(false);
    expect(isAtLabelLimit(20, 20)).toBe(true);
    expect(isAtLabelLimit(21, 20)).toBe(true);
  });

  it('keeps at most 15 characters of a label name', () => {
    expect(clampLabelText('123456789012345')).toBe('123456789012345');
    expect(clampLabelText('1234567890123456')).toBe('123456789012345');
  });

  it('creates only a non-empty text under the limit', () => {
    expect(canAddLabel('VIP', 19, 20)).toBe(true);
    expect(canAddLabel('', 19, 20)).toBe(false);
    expect(canAddLabel('   ', 19, 20)).toBe(false);
    expect(canAddLabel('VIP', 20, 20)).toBe(false);
  });

  it('sets only a chosen label that differs from the current one', () => {
    expect(canSetLabel('VIP', 'Priority')).toBe(true);
    expect(canSetLabel('VIP', '')).toBe(true);
    expect(canSetLabel('VIP', 'VIP')).toBe(false);
    expect(canSetLabel('', 'VIP')).toBe(false);
  });

  it('offers the creator with label.add only', () => {
    expect(canCreateLabels(['label.add'])).toBe(true);
    expect(canCreateLabels(['label.assign'])).toBe(false);
  });
});

describe('assignee picker rules', () => {
  it('assigns only a chosen assignee who differs from the saved one', () => {
    expect(canAssign('a', null)).toBe(true);
    expect(canAssign('a', 'b')).toBe(true);
    expect(canAssign('a', 'a')).toBe(false);
    expect(canAssign(null, 'a')).toBe(false);
  });
});

describe('single-field editors', () => {
  it('needs an owner', () => {
    expect(fieldProblem('owner', '')).toBe('Please select an owner.');
    expect(fieldProblem('owner', '3c9e1f20-0000-4000-8000-0000000000c1')).toBeUndefined();
  });

  it('needs a valid e-mail address', () => {
    expect(fieldProblem('email', '')).toBe('Email address is required.');
    expect(fieldProblem('email', '  ')).toBe('Email address is required.');
    expect(fieldProblem('email', 'not-an-address')).toBe('Please enter a valid email address.');
    expect(fieldProblem('email', 'someone@example')).toBe('Please enter a valid email address.');
    expect(fieldProblem('email', 'someone@example.test')).toBeUndefined();
  });

  it('offers exactly Online (Pin) and Print & Sign (PrintandSign)', () => {
    expect(fieldProblem('signingMode', 'Pin')).toBeUndefined();
    expect(fieldProblem('signingMode', 'PrintandSign')).toBeUndefined();
    expect(fieldProblem('signingMode', 'Online')).toBe('Please select a signing mode.');
    expect(signingModeCode('Online')).toBe('Pin');
    expect(signingModeCode('Print & Sign')).toBe('PrintandSign');
  });

  it('saves an acceptable value that differs from the current one', () => {
    expect(canSaveField('email', 'new@example.test', 'old@example.test')).toBe(true);
    expect(canSaveField('email', 'old@example.test', 'old@example.test')).toBe(false);
    expect(canSaveField('email', 'not-an-address', 'old@example.test')).toBe(false);
    expect(canSaveField('signingMode', 'PrintandSign', 'Pin')).toBe(true);
    expect(canSaveField('signingMode', 'Pin', 'Pin')).toBe(false);
    expect(canSaveField('owner', '', '')).toBe(false);
  });
});
