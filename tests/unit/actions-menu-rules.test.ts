import { describe, expect, it } from 'vitest';
import { actionsMenu, canEditApplication, canViewApplication, type MenuFacts } from '../../src/domain/actions-menu.ts';
import { allClaims } from '../../src/domain/claims.ts';

/**
 * AM §2 the Actions dropdown: the spec's order, each item only when its rule (AM §6) holds, report
 * and API items one per ReportItem / ApiItem, and what shows when nothing applies.
 */
const reports = [
  { ReportName: 'DraftReport', DisplayName: 'Draft Report' },
  { ReportName: 'Summary', DisplayName: 'Summary' },
];
const apis = [{ ApiName: 'CoreBanking', DisplayName: 'Send to core banking' }];

const app = (overrides: Partial<MenuFacts>): MenuFacts => ({
  Status: 'Primary edit',
  IsComplete: false,
  ApplicationModeCode: 'Online',
  ReportItems: reports,
  ApiItems: apis,
  ...overrides,
});
const labels = (facts: MenuFacts, claims: readonly string[]) => {
  const menu = actionsMenu(facts, claims);
  return menu.state === 'items' ? menu.items.map((item) => item.label) : menu.state;
};

describe('Actions menu (AM §2)', () => {
  it('lists an incomplete online application in the spec order: e-mail, reports, cancel, depersonalise', () => {
    expect(labels(app({}), allClaims)).toEqual([
      'Email Resume Link',
      'Draft Report',
      'Summary',
      'Cancel Application',
      'Depersonalise Application',
    ]);
  });

  it('offers Unlock first for a Locked application, and no resume link (Locked is not one of the four statuses)', () => {
    expect(labels(app({ Status: 'Locked' }), allClaims)).toEqual([
      'Unlock',
      'Draft Report',
      'Summary',
      'Cancel Application',
      'Depersonalise Application',
    ]);
  });

  it('offers the completion e-mail and each API step for a completed application, after the reports', () => {
    expect(labels(app({ Status: 'Complete', IsComplete: true }), allClaims)).toEqual([
      'Resend Completion Email',
      'Draft Report',
      'Summary',
      'Send to core banking',
      'Cancel Application',
      'Depersonalise Application',
    ]);
  });

  it('names each report and API item by its ReportName / ApiName so the call gets the right one', () => {
    const menu = actionsMenu(app({ Status: 'Complete', IsComplete: true }), allClaims);
    if (menu.state !== 'items') throw new Error('expected items');
    expect(menu.items.filter((item) => item.kind === 'report').map((item) => item.reportName)).toEqual([
      'DraftReport',
      'Summary',
    ]);
    expect(menu.items.find((item) => item.kind === 'triggerApi')).toMatchObject({ apiName: 'CoreBanking' });
    expect(new Set(menu.items.map((item) => item.id)).size).toBe(menu.items.length);
  });

  it('takes each item away with its claim alone', () => {
    const complete = app({ Status: 'Complete', IsComplete: true });
    const without = (claim: string) => allClaims.filter((held) => held !== claim);
    expect(labels(complete, without('app.resendcompletionemail'))).not.toContain('Resend Completion Email');
    expect(labels(complete, without('app.generatefinalreport'))).not.toContain('Draft Report');
    // A draft report needs the draft claim; the final one does not stand in for it.
    expect(labels(app({}), without('app.generatedraftreport'))).not.toContain('Summary');
    expect(labels(app({}), without('app.generatefinalreport'))).toContain('Summary');
    expect(labels(complete, without('app.triggerapi'))).not.toContain('Send to core banking');
    expect(labels(complete, without('app.cancel'))).not.toContain('Cancel Application');
    expect(labels(complete, without('app.depersonalise'))).not.toContain('Depersonalise Application');
    expect(labels(app({ Status: 'Locked' }), without('app.unlockapplication'))).not.toContain('Unlock');
    expect(labels(app({}), without('app.emailresumelink'))).not.toContain('Email Resume Link');
  });

  it('has no resume link for Print & Sign, and only the reports once depersonalised', () => {
    expect(labels(app({ ApplicationModeCode: 'Print & Sign' }), allClaims)).not.toContain('Email Resume Link');
    expect(labels(app({ Status: 'Depersonalised', IsComplete: true }), allClaims)).toEqual(['Draft Report', 'Summary']);
  });

  it('offers Depersonalise on a cancelled application where the claim allows, and nothing else that writes (issue 38 point 6)', () => {
    expect(labels(app({ Status: 'Cancelled' }), allClaims)).toEqual(['Draft Report', 'Summary', 'Depersonalise Application']);
    expect(labels(app({ Status: 'Cancelled', IsComplete: true }), allClaims)).toEqual(['Draft Report', 'Summary', 'Depersonalise Application']);
    expect(labels(app({ Status: 'Cancelled' }), allClaims.filter((claim) => claim !== 'app.depersonalise'))).toEqual(['Draft Report', 'Summary']);
  });

  it('is hidden for a person holding none of its claims', () => {
    expect(actionsMenu(app({}), ['view.allapps.instance', 'app.view', 'app.edit'])).toEqual({ state: 'hidden' });
  });

  it('is unavailable, with the reason, when the person may act but nothing applies to this application', () => {
    expect(actionsMenu(app({ Status: 'Complete', IsComplete: true }), ['app.unlockapplication'])).toEqual({
      state: 'unavailable',
      reason: 'No action applies to this application in its current state.',
    });
    // A report claim with no ReportItems offers nothing either.
    expect(actionsMenu(app({ ReportItems: [] }), ['app.generatedraftreport']).state).toBe('unavailable');
  });
});

describe('View and Edit (AM §6)', () => {
  const complete = app({ Status: 'Complete', IsComplete: true });
  it('View needs app.view', () => {
    expect(canViewApplication(complete, ['app.view'])).toBe(true);
    expect(canViewApplication(complete, ['app.edit'])).toBe(false);
  });
  it('Edit needs app.edit, and app.editcompleted as well for a completed application', () => {
    expect(canEditApplication(app({}), ['app.edit'])).toBe(true);
    expect(canEditApplication(complete, ['app.edit'])).toBe(false);
    expect(canEditApplication(complete, ['app.edit', 'app.editcompleted'])).toBe(true);
    expect(canEditApplication(complete, ['app.editcompleted'])).toBe(false);
  });
});
