import { hasClaim, type Claims } from './permissions.ts';
import { applicationWriteProblem } from './application-write-rule.ts';

/**
 * AM §6: which action on an application a person may take, as claim AND state. One table serves
 * the portal (an item shows only when its rule holds) and the server (403 for the claim, 409 with
 * the rule's message for the state), so the two cannot disagree.
 */

/** The facts about an application the rules read (a subset of the detail, AM §3). */
export interface ActionFacts {
  Status: string;
  IsComplete: boolean;
  /** 'Online' or 'Print & Sign' as the detail shows it. */
  ApplicationModeCode: string;
}

/** AM §6 app.emailresumelink: the four statuses in which the applicant is still filling the form. */
export const resumableStatuses: readonly string[] = ['Adviser submit', 'Primary edit', 'Primary submit', 'Secondary review'];

const printAndSign = 'Print & Sign';
const depersonalised = 'Depersonalised';

interface ActionRule {
  /** The claim this action needs; a function when the claim depends on the application (reports). */
  claim: string | ((facts: ActionFacts) => string);
  /** Why the application's state does not allow the action; undefined when it does. */
  stateProblem: (facts: ActionFacts) => string | undefined;
}

const always = () => undefined;
/** The one write rule (application-write-rule.ts): nothing is written to a depersonalised or cancelled application. */
const unlessGone = (facts: ActionFacts) => applicationWriteProblem(facts.Status);

export const actionRules = {
  unlockApplication: {
    claim: 'app.unlockapplication',
    stateProblem: (facts) => (facts.Status === 'Locked' ? undefined : 'Only a locked application can be unlocked.'),
  },
  emailResumeLink: {
    claim: 'app.emailresumelink',
    stateProblem: (facts) =>
      facts.IsComplete
        ? 'The application is already complete.'
        : facts.ApplicationModeCode === printAndSign
          ? 'A Print & Sign application has no resume link.'
          : resumableStatuses.includes(facts.Status)
            ? undefined
            : `A resume link cannot be sent while the status is ${facts.Status}.`,
  },
  resendCompletionEmail: {
    claim: 'app.resendcompletionemail',
    stateProblem: (facts) =>
      !facts.IsComplete
        ? 'The application is not complete yet.'
        : facts.ApplicationModeCode === printAndSign
          ? 'A Print & Sign application has no completion e-mail.'
          : unlessGone(facts),
  },
  generateReport: {
    claim: (facts) => (facts.IsComplete ? 'app.generatefinalreport' : 'app.generatedraftreport'),
    stateProblem: always,
  },
  triggerApi: {
    claim: 'app.triggerapi',
    stateProblem: (facts) =>
      !facts.IsComplete ? 'API steps run on completed applications only.' : unlessGone(facts),
  },
  cancel: { claim: 'app.cancel', stateProblem: unlessGone },
  depersonalise: {
    claim: 'app.depersonalise',
    // Cancelled is closed for work, not for erasure (issue 38 point 6): the person is still owed
    // it. Depersonalised is final. The server lets it past the write rule (config.erasesApplications).
    stateProblem: (facts) => (facts.Status === depersonalised ? 'This application has already been depersonalised.' : undefined),
  },
  assign: { claim: 'app.assign', stateProblem: unlessGone },
  setLabel: { claim: 'label.assign', stateProblem: unlessGone },
  changeOwner: { claim: 'app.changeowner', stateProblem: unlessGone },
  changePrimaryEmail: {
    claim: 'app.changeprimaryemail',
    stateProblem: (facts) =>
      unlessGone(facts) ?? (facts.IsComplete ? 'The e-mail address can only be changed while the application is incomplete.' : undefined),
  },
  changeSigningMode: {
    claim: 'app.changesigningmode',
    stateProblem: (facts) =>
      facts.Status === 'Adviser edit' ? undefined : 'The signing mode can only be changed in status Adviser edit.',
  },
  view: { claim: 'app.view', stateProblem: unlessGone },
  /** Editing a completed application also needs app.editcompleted (see `editProblem`). */
  edit: { claim: 'app.edit', stateProblem: unlessGone },
  unlockApplicant: { claim: 'app.labformmfaunlock', stateProblem: unlessGone },
} satisfies Record<string, ActionRule>;

export type ApplicationAction = keyof typeof actionRules;

export type ActionVerdict =
  | { allowed: true }
  | { allowed: false; reason: 'claim'; claim: string }
  | { allowed: false; reason: 'state'; message: string };

/** The rule's decision with its reason: the server maps 'claim' to 403 and 'state' to 409. */
export function actionVerdict(action: ApplicationAction, facts: ActionFacts, claims: Claims): ActionVerdict {
  const rule: ActionRule = actionRules[action];
  const claim = typeof rule.claim === 'function' ? rule.claim(facts) : rule.claim;
  if (!hasClaim(claims, claim)) return { allowed: false, reason: 'claim', claim };
  const message = rule.stateProblem(facts) ?? (action === 'edit' ? editProblem(facts, claims) : undefined);
  return message === undefined ? { allowed: true } : { allowed: false, reason: 'state', message };
}

export const canTakeAction = (action: ApplicationAction, facts: ActionFacts, claims: Claims): boolean =>
  actionVerdict(action, facts, claims).allowed;

/** AM §6 app.editcompleted: editing a completed application resets approvals, so it takes its own claim. */
function editProblem(facts: ActionFacts, claims: Claims): string | undefined {
  return facts.IsComplete && !hasClaim(claims, 'app.editcompleted')
    ? 'Editing a completed application needs the app.editcompleted permission.'
    : undefined;
}

/** An MFA-locked applicant can be unlocked (AM §4 approver display, §6 app.labformmfaunlock). */
export const canUnlockApplicant = (facts: ActionFacts, applicant: { IsMFALocked: boolean }, claims: Claims) =>
  applicant.IsMFALocked && canTakeAction('unlockApplicant', facts, claims);

/** AM §4 signing mode mapping: the code Pin is Online, any other code Print & Sign. */
export const signingModeChoices = [
  { value: 'Pin', label: 'Online' },
  { value: 'PrintandSign', label: 'Print & Sign' },
] as const;
export type SigningModeCode = (typeof signingModeChoices)[number]['value'];
export const signingModeLabel = (code: string): string => (code === 'Pin' ? 'Online' : printAndSign);
