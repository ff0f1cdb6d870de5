import { ChangePrimaryEmailRequestSchema, labelMaxLength } from '../schemas/application-actions.schema.ts';
import { signingModeChoices } from './application-actions.ts';
import { hasClaim, type Claims } from './permissions.ts';

/**
 * Rules of the detail screen's editors (AM §2 modals Assignee picker, Label picker, Edit Owner,
 * Edit Email Address, Change Signing Mode; §5 validation). Who may open each editor is
 * `canTakeAction` in application-actions.ts; these say what a person may save once it is open.
 */

/** AM §6 label.add: the label creator inside the Label picker. */
export const canCreateLabels = (claims: Claims): boolean => hasClaim(claims, 'label.add');

/** AM §5: the label count as 'n / max'. */
export const labelCountText = (count: number, maximum: number): string => `${count} / ${maximum}`;

/** AM §5: at the limit the count turns red and the creator is hidden. */
export const isAtLabelLimit = (count: number, maximum: number): boolean => count >= maximum;

/** AM §5/§9: a label name has at most 15 characters; longer input is cut, not refused. */
export const clampLabelText = (text: string): string => text.slice(0, labelMaxLength);

/** AM §5: Create label is disabled while the text is empty (spaces alone count as empty). */
export const canAddLabel = (text: string, count: number, maximum: number): boolean =>
  text.trim() !== '' && !isAtLabelLimit(count, maximum);

/** AM §5: Set label is disabled while the choice is none or equals the current label. */
export const canSetLabel = (selected: string, current: string): boolean => selected !== '' && selected !== current;

/** AM §5: Assign is disabled until an assignee is chosen that differs from the saved one. */
export const canAssign = (selected: string | null, saved: string | null): boolean =>
  selected !== null && selected !== saved;

/** The single-field editors of the detail screen. */
export type EditorField = 'owner' | 'email' | 'signingMode';

/** AM §2 modal titles and their field labels. */
export const editorTexts = {
  owner: { title: 'Edit Owner', label: 'Owner' },
  email: { title: 'Edit Email Address', label: 'Email address' },
  signingMode: { title: 'Change Signing Mode', label: 'Signing mode' },
} as const satisfies Record<EditorField, { title: string; label: string }>;

export const fieldProblems = {
  /** AM §5 "Please select an owner." is the on-behalf picker's text; Edit Owner asks the same. */
  noOwner: 'Please select an owner.',
  noEmail: 'Email address is required.',
  invalidEmail: 'Please enter a valid email address.',
  noSigningMode: 'Please select a signing mode.',
} as const;

/** AM §5 validation of each editor's one field: the message to show, undefined when the value is acceptable. */
export function fieldProblem(field: EditorField, value: string): string | undefined {
  switch (field) {
    case 'owner':
      return value === '' ? fieldProblems.noOwner : undefined;
    case 'email':
      // The server validates with the same schema: one rule on both sides.
      if (value.trim() === '') return fieldProblems.noEmail;
      return ChangePrimaryEmailRequestSchema.safeParse({ PrimaryEmail: value.trim() }).success
        ? undefined
        : fieldProblems.invalidEmail;
    case 'signingMode':
      return signingModeChoices.some((choice) => choice.value === value) ? undefined : fieldProblems.noSigningMode;
  }
}

/** Save is enabled once the value is acceptable and differs from what the application holds. */
export const canSaveField = (field: EditorField, value: string, current: string): boolean =>
  fieldProblem(field, value) === undefined && value.trim() !== current;

/** AM §4: the detail shows the mode as 'Online' or 'Print & Sign'; the editor speaks in codes (Pin, PrintandSign). */
export const signingModeCode = (shown: string): string =>
  signingModeChoices.find((choice) => choice.label === shown)?.value ?? shown;
