import { passwordRules, passwordsMismatchMessage, type PasswordChangeDraft } from './password-policy.ts';

export interface PasswordRuleStatus {
  id: string;
  label: string;
  met: boolean;
}

export interface PasswordChangeFeedback {
  /** Every policy rule with whether the new password meets it, in policy order. */
  rules: PasswordRuleStatus[];
  /** 'Passwords do not match.' once a confirmation is typed that differs from the new password. */
  mismatch: string | undefined;
}

/** AM §5: what the Change Password form shows about a (validated) draft. */
export function passwordChangeFeedback(draft: PasswordChangeDraft): PasswordChangeFeedback {
  return {
    rules: passwordRules.map((rule) => ({ id: rule.id, label: rule.label, met: rule.test(draft.next) })),
    mismatch: draft.confirm !== '' && draft.confirm !== draft.next ? passwordsMismatchMessage : undefined,
  };
}

export const emptyPasswordChangeDraft: PasswordChangeDraft = { current: '', next: '', confirm: '' };
