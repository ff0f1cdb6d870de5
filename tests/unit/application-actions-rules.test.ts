import { describe, expect, it } from 'vitest';
import {
  actionRules,
  actionVerdict,
  canTakeAction,
  canUnlockApplicant,
  signingModeLabel,
  type ActionFacts,
  type ApplicationAction,
} from '../../src/domain/application-actions.ts';
import { applicationStatuses } from '../../src/domain/application-status.ts';

/**
 * AM §6 as a table: every action over every status × complete or not × signing mode × with and
 * without its claim. The expected column is the spec's sentence written out again here, on its own,
 * so a rule that drops or loosens a condition fails on the rows where it matters.
 */
const statuses = [...applicationStatuses, 'Some new status'];
const modes = ['Online', 'Print & Sign'];
const resumable = ['Adviser submit', 'Primary edit', 'Primary submit', 'Secondary review'];

const allFacts: ActionFacts[] = statuses.flatMap((Status) =>
  [true, false].flatMap((IsComplete) => modes.map((ApplicationModeCode) => ({ Status, IsComplete, ApplicationModeCode }))),
);

const live = (f: ActionFacts) => f.Status !== 'Depersonalised' && f.Status !== 'Cancelled';

/** The spec's state rule per action (AM §6 table, ARCHITECTURE §5), independent of the implementation. */
const specStateRule: Record<ApplicationAction, (f: ActionFacts) => boolean> = {
  unlockApplication: (f) => f.Status === 'Locked',
  emailResumeLink: (f) => !f.IsComplete && f.ApplicationModeCode !== 'Print & Sign' && resumable.includes(f.Status),
  // Issue 32: a cancelled application opens, read-only; the server's write rule refuses these for it (409).
  resendCompletionEmail: (f) => f.IsComplete && f.ApplicationModeCode !== 'Print & Sign' && live(f),
  generateReport: () => true,
  triggerApi: (f) => f.IsComplete && live(f),
  cancel: live,
  // Issue 38 point 6: cancelled is closed for work, not for erasure; depersonalised is final.
  depersonalise: (f) => f.Status !== 'Depersonalised',
  assign: live,
  setLabel: live,
  changeOwner: live,
  changePrimaryEmail: (f) => live(f) && !f.IsComplete,
  changeSigningMode: (f) => f.Status === 'Adviser edit',
  view: live,
  edit: live,
  unlockApplicant: live,
};

const specClaim: Record<ApplicationAction, (f: ActionFacts) => string> = {
  unlockApplication: () => 'app.unlockapplication',
  emailResumeLink: () => 'app.emailresumelink',
  resendCompletionEmail: () => 'app.resendcompletionemail',
  generateReport: (f) => (f.IsComplete ? 'app.generatefinalreport' : 'app.generatedraftreport'),
  triggerApi: () => 'app.triggerapi',
  cancel: () => 'app.cancel',
  depersonalise: () => 'app.depersonalise',
  assign: () => 'app.assign',
  setLabel: () => 'label.assign',
  changeOwner: () => 'app.changeowner',
  changePrimaryEmail: () => 'app.changeprimaryemail',
  changeSigningMode: () => 'app.changesigningmode',
  view: () => 'app.view',
  edit: () => 'app.edit',
  unlockApplicant: () => 'app.labformmfaunlock',
};

const actions = Object.keys(actionRules) as ApplicationAction[];
const label = (f: ActionFacts) => `${f.Status}, ${f.IsComplete ? 'complete' : 'incomplete'}, ${f.ApplicationModeCode}`;

describe('application actions (AM §6): claim AND state', () => {
  it('has a spec row for every action', () => {
    expect(Object.keys(specStateRule).sort()).toEqual([...actions].sort());
  });

  describe.each(actions)('%s', (action) => {
    it.each(allFacts.map((facts) => [label(facts), facts] as const))('with its claim: %s', (_name, facts) => {
      // Editing a completed application also needs app.editcompleted (tested on its own below).
      const claims = [specClaim[action](facts), 'app.editcompleted'];
      const verdict = actionVerdict(action, facts, claims);
      expect(verdict.allowed).toBe(specStateRule[action](facts));
      if (!verdict.allowed) {
        expect(verdict.reason).toBe('state');
        if (verdict.reason === 'state') expect(verdict.message.length).toBeGreaterThan(10);
      }
    });

    it.each(allFacts.map((facts) => [label(facts), facts] as const))('without its claim: %s', (_name, facts) => {
      // Every other claim of the table, so only the missing one can refuse.
      const others = Object.values(specClaim)
        .flatMap((claim) => [claim({ ...facts, IsComplete: true }), claim({ ...facts, IsComplete: false })])
        .filter((claim) => claim !== specClaim[action](facts));
      expect(actionVerdict(action, facts, [...others, 'app.editcompleted'])).toEqual({
        allowed: false,
        reason: 'claim',
        claim: specClaim[action](facts),
      });
    });
  });

  it('edits a completed application only with app.editcompleted as well', () => {
    const complete = { Status: 'Complete', IsComplete: true, ApplicationModeCode: 'Online' };
    const incomplete = { Status: 'Primary edit', IsComplete: false, ApplicationModeCode: 'Online' };
    expect(canTakeAction('edit', complete, ['app.edit'])).toBe(false);
    expect(actionVerdict('edit', complete, ['app.edit'])).toMatchObject({ reason: 'state' });
    expect(canTakeAction('edit', complete, ['app.editcompleted'])).toBe(false);
    expect(canTakeAction('edit', complete, ['app.edit', 'app.editcompleted'])).toBe(true);
    expect(canTakeAction('edit', incomplete, ['app.edit'])).toBe(true);
  });

  it('unlocks an applicant only when MFA-locked, with app.labformmfaunlock', () => {
    const facts = { Status: 'Primary edit', IsComplete: false, ApplicationModeCode: 'Online' };
    expect(canUnlockApplicant(facts, { IsMFALocked: true }, ['app.labformmfaunlock'])).toBe(true);
    expect(canUnlockApplicant(facts, { IsMFALocked: false }, ['app.labformmfaunlock'])).toBe(false);
    expect(canUnlockApplicant(facts, { IsMFALocked: true }, ['app.view'])).toBe(false);
  });

  it('maps the signing mode code Pin to Online and any other code to Print & Sign (AM §4)', () => {
    expect(signingModeLabel('Pin')).toBe('Online');
    expect(signingModeLabel('PrintandSign')).toBe('Print & Sign');
    expect(signingModeLabel('')).toBe('Print & Sign');
  });
});
