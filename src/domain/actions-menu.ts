import { actionVerdict, type ActionFacts, type ActionVerdict, type ApplicationAction } from './application-actions.ts';
import type { Claims } from './permissions.ts';

/**
 * AM §2 the detail screen's Actions dropdown: which items show, in the spec's order (Unlock, Email
 * Resume Link, Resend Completion Email, report items, API-trigger items, Cancel Application,
 * Depersonalise Application). Each item shows only when its rule in application-actions.ts holds;
 * the view renders this list and never decides an item itself.
 */

export type ActionsMenuItem =
  | { kind: 'unlockApplication'; id: string; label: string }
  | { kind: 'emailResumeLink'; id: string; label: string }
  | { kind: 'resendCompletionEmail'; id: string; label: string }
  | { kind: 'report'; id: string; label: string; reportName: string }
  | { kind: 'triggerApi'; id: string; label: string; apiName: string }
  | { kind: 'cancel'; id: string; label: string }
  | { kind: 'depersonalise'; id: string; label: string };

/** The application as far as the menu reads it (AM §3 ReportItems and ApiItems). */
export interface MenuFacts extends ActionFacts {
  ReportItems: readonly { ReportName: string; DisplayName: string }[];
  ApiItems: readonly { ApiName: string; DisplayName: string }[];
}

/**
 * - `items`: something to choose;
 * - `unavailable`: the person may take some of these actions, but none applies to this
 *   application now (the button shows, disabled, with `reason`);
 * - `hidden`: the person holds none of the menu's claims, so there is no menu for them at all.
 */
export type ActionsMenu =
  | { state: 'items'; items: ActionsMenuItem[] }
  | { state: 'unavailable'; reason: string }
  | { state: 'hidden' };

/** AM §2 item names, letter for letter. */
export const actionsMenuLabels = {
  unlockApplication: 'Unlock',
  emailResumeLink: 'Email Resume Link',
  resendCompletionEmail: 'Resend Completion Email',
  cancel: 'Cancel Application',
  depersonalise: 'Depersonalise Application',
} as const;

export const noActionsReason = 'No action applies to this application in its current state.';

export function actionsMenu(facts: MenuFacts, claims: Claims): ActionsMenu {
  const verdicts: ActionVerdict[] = [];
  const verdict = (action: ApplicationAction) => {
    const decided = actionVerdict(action, facts, claims);
    verdicts.push(decided);
    return decided.allowed;
  };
  const items: ActionsMenuItem[] = [];
  if (verdict('unlockApplication'))
    items.push({ kind: 'unlockApplication', id: 'unlockApplication', label: actionsMenuLabels.unlockApplication });
  if (verdict('emailResumeLink'))
    items.push({ kind: 'emailResumeLink', id: 'emailResumeLink', label: actionsMenuLabels.emailResumeLink });
  if (verdict('resendCompletionEmail'))
    items.push({ kind: 'resendCompletionEmail', id: 'resendCompletionEmail', label: actionsMenuLabels.resendCompletionEmail });
  if (verdict('generateReport'))
    for (const report of facts.ReportItems)
      items.push({ kind: 'report', id: `report:${report.ReportName}`, label: report.DisplayName, reportName: report.ReportName });
  if (verdict('triggerApi'))
    for (const api of facts.ApiItems)
      items.push({ kind: 'triggerApi', id: `api:${api.ApiName}`, label: api.DisplayName, apiName: api.ApiName });
  if (verdict('cancel')) items.push({ kind: 'cancel', id: 'cancel', label: actionsMenuLabels.cancel });
  if (verdict('depersonalise'))
    items.push({ kind: 'depersonalise', id: 'depersonalise', label: actionsMenuLabels.depersonalise });
  if (items.length) return { state: 'items', items };
  return verdicts.some((decided) => decided.allowed || decided.reason !== 'claim')
    ? { state: 'unavailable', reason: noActionsReason }
    : { state: 'hidden' };
}

/** AM §6 View (app.view) and Edit (app.edit; a completed application also needs app.editcompleted). */
export const canViewApplication = (facts: ActionFacts, claims: Claims): boolean =>
  actionVerdict('view', facts, claims).allowed;
export const canEditApplication = (facts: ActionFacts, claims: Claims): boolean =>
  actionVerdict('edit', facts, claims).allowed;
