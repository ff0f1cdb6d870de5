import { describe, expect, it } from 'vitest';
import { applicationLinkProblem, applicationWriteProblem, isWritable } from '../../src/domain/application-write-rule.ts';
import { actionRules, actionVerdict } from '../../src/domain/application-actions.ts';

/** Issue 27: the one state rule for writes, and the action table that builds on it. */
describe('applicationWriteProblem', () => {
  it.each([
    ['Depersonalised', 'This application has been depersonalised.', 'This application is no longer available.'],
    ['Cancelled', 'This application has been cancelled.', 'This application has been cancelled and can no longer be edited.'],
  ])('closes %s, with a message for staff and one for a link holder', (status, staff, link) => {
    expect(applicationWriteProblem(status)).toBe(staff);
    expect(applicationLinkProblem(status)).toBe(link);
    expect(isWritable(status)).toBe(false);
  });

  it.each(['Adviser edit', 'Primary edit', 'Complete', 'Locked', 'Documents pending', 'depersonalised', 'Something new'])('leaves %s open', (status) => {
    expect(applicationWriteProblem(status)).toBeUndefined();
    expect(applicationLinkProblem(status)).toBeUndefined();
    expect(isWritable(status)).toBe(true);
  });

  it('is the state rule of every action that writes an application (AM §6 table)', () => {
    const facts = { Status: 'Depersonalised', IsComplete: false, ApplicationModeCode: 'Online' };
    const claims = Object.values(actionRules).flatMap((rule) => (typeof rule.claim === 'string' ? [rule.claim] : []));
    for (const action of ['assign', 'setLabel', 'changeOwner', 'changePrimaryEmail', 'cancel', 'edit', 'unlockApplicant'] as const) {
      expect(actionVerdict(action, facts, claims), action).toEqual({ allowed: false, reason: 'state', message: 'This application has been depersonalised.' });
    }
  });

  it('leaves a cancelled application nothing that writes but depersonalise, complete or not: its detail opens read-only (issues 32, 38)', () => {
    const claims = Object.values(actionRules).flatMap((rule) => (typeof rule.claim === 'string' ? [rule.claim] : []));
    claims.push('app.generatefinalreport', 'app.generatedraftreport');
    for (const IsComplete of [false, true]) {
      const facts = { Status: 'Cancelled', IsComplete, ApplicationModeCode: 'Online' };
      const open = Object.keys(actionRules).filter((action) => actionVerdict(action as keyof typeof actionRules, facts, claims).allowed);
      // A report is read (GET), never written; erasure is still owed to the person (issue 38 point 6).
      expect(open, String(IsComplete)).toEqual(['generateReport', 'depersonalise']);
    }
  });
});
