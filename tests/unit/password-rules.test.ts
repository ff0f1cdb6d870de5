import { describe, expect, it } from 'vitest';
import { passwordChangeFeedback } from '../../src/domain/password-change.ts';
import {
  canSavePasswordChange,
  failedPasswordRules,
  passwordRules,
  satisfiesPasswordPolicy,
} from '../../src/domain/password-policy.ts';

/**
 * Each password rule alone (AM §5): every sample breaks exactly one rule and keeps the others, so a
 * rule that is weakened or dropped fails its own line. 'Ab1!wxyz' is the 8-character password that
 * meets them all.
 */
export const breaksOnlyOneRule = [
  { rule: 'length', label: 'At least 8 characters', password: 'Ab1!xyz' },
  { rule: 'lowercase', label: 'One lowercase letter', password: 'AB1!WXYZ' },
  { rule: 'uppercase', label: 'One uppercase letter', password: 'ab1!wxyz' },
  { rule: 'number', label: 'One number', password: 'Ab!?wxyz' },
  { rule: 'symbol', label: 'One punctuation symbol', password: 'Ab12wxyz' },
] as const;

describe('the password policy, one rule at a time', () => {
  it('names the five rules, in order, as the form lists them', () => {
    expect(passwordRules.map(({ id, label }) => ({ id, label }))).toEqual(
      breaksOnlyOneRule.map(({ rule, label }) => ({ id: rule, label })),
    );
  });

  it('accepts an 8-character password that meets every rule', () => {
    expect(failedPasswordRules('Ab1!wxyz')).toEqual([]);
    expect(satisfiesPasswordPolicy('Ab1!wxyz')).toBe(true);
  });

  it.each(breaksOnlyOneRule)('$password breaks only "$label"', ({ rule, password }) => {
    expect(failedPasswordRules(password).map((failed) => failed.id)).toEqual([rule]);
    expect(satisfiesPasswordPolicy(password)).toBe(false);
    const feedback = passwordChangeFeedback({ current: 'x', next: password, confirm: password });
    expect(feedback.rules.filter((shown) => !shown.met).map((shown) => shown.id)).toEqual([rule]);
    expect(canSavePasswordChange({ current: 'Demo-Passw0rd!', next: password, confirm: password })).toBe(false);
  });

  it('counts the length from 8: 6 and 7 characters are too short', () => {
    for (const short of ['Ab1!xy', 'Ab1!xyz']) expect(failedPasswordRules(short).map((rule) => rule.id)).toEqual(['length']);
  });

  it('takes letters, digits and symbols beyond ASCII', () => {
    expect(failedPasswordRules('Éb1¿wxyz')).toEqual([]);
    expect(failedPasswordRules('éb١!wxyz').map((rule) => rule.id)).toEqual(['uppercase']);
  });
});

describe('Save, one condition at a time', () => {
  const good = { current: 'Demo-Passw0rd!', next: 'Ab1!wxyz', confirm: 'Ab1!wxyz' };
  it('is enabled when all three are filled, match and pass the policy', () => {
    expect(canSavePasswordChange(good)).toBe(true);
  });
  it.each([
    ['no current password', { ...good, current: '' }],
    ['no new password', { ...good, next: '', confirm: '' }],
    ['no confirmation', { ...good, confirm: '' }],
    ['a confirmation that differs', { ...good, confirm: 'Ab1!wxyZ' }],
  ])('is disabled with %s', (_, draft) => expect(canSavePasswordChange(draft)).toBe(false));

  it('says the passwords do not match only once a different confirmation is typed', () => {
    expect(passwordChangeFeedback({ ...good, confirm: '' }).mismatch).toBeUndefined();
    expect(passwordChangeFeedback(good).mismatch).toBeUndefined();
    expect(passwordChangeFeedback({ ...good, confirm: 'Ab1!wxyZ' }).mismatch).toBe('Passwords do not match.');
  });
});
