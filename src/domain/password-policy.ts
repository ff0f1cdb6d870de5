/** AM §5: the new-password policy, shared by the Change Password modal and the identity server. */
export interface PasswordRule {
  id: 'length' | 'lowercase' | 'uppercase' | 'number' | 'symbol';
  label: string;
  test: (password: string) => boolean;
}

export const minimumPasswordLength = 8;

export const passwordRules: readonly PasswordRule[] = [
  { id: 'length', label: `At least ${minimumPasswordLength} characters`, test: (p) => p.length >= minimumPasswordLength },
  { id: 'lowercase', label: 'One lowercase letter', test: (p) => /\p{Ll}/u.test(p) },
  { id: 'uppercase', label: 'One uppercase letter', test: (p) => /\p{Lu}/u.test(p) },
  { id: 'number', label: 'One number', test: (p) => /\p{Nd}/u.test(p) },
  { id: 'symbol', label: 'One punctuation symbol', test: (p) => /[\p{P}\p{S}]/u.test(p) },
];

export const failedPasswordRules = (password: string): PasswordRule[] =>
  passwordRules.filter((rule) => !rule.test(password));

export const satisfiesPasswordPolicy = (password: string): boolean => failedPasswordRules(password).length === 0;

export const passwordsMismatchMessage = 'Passwords do not match.';

export interface PasswordChangeDraft {
  current: string;
  next: string;
  confirm: string;
}

/** AM §5: Save is enabled only when all three are filled, new equals confirm, and the policy passes. */
export const canSavePasswordChange = ({ current, next, confirm }: PasswordChangeDraft): boolean =>
  current !== '' &&
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent; an empty new password fails the length rule and confirm must equal it, so these two only spell out the spec's "all three filled"
  next !== '' && confirm !== '' &&
  next === confirm &&
  satisfiesPasswordPolicy(next);
