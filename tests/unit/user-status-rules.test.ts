import { describe, expect, it } from 'vitest';
import {
  allowedUserActions,
  applicationAccessText,
  canApplyUserAction,
  invitationActions,
  isAdminStaffRole,
  isEnabledStatus,
  isLockedStatus,
  lockDescription,
  rowStatusDisplay,
  statusAfter,
  userStatusDisplay,
  userStatuses,
  type UserAction,
} from '../../src/domain/user-status.ts';

/**
 * SUV §4 user status, written out here from the spec rather than read from the module: every status
 * with its label, style, whether it is enabled or locked, and the actions it allows.
 */
const table: [status: string, label: string, style: string, enabled: boolean, locked: boolean, actions: UserAction[]][] = [
  ['Invited', 'Invited', 'pending', true, false, []],
  ['Active', 'Active', 'success', true, false, ['deactivate']],
  ['Normal', 'Active', 'success', true, false, ['deactivate']],
  ['LockedPasswordAttempts', 'Locked - Invalid password', 'danger', false, true, ['unlock', 'deactivate']],
  ['LockedMFAAttempts', 'Locked - Invalid MFA', 'danger', false, true, ['unlock', 'deactivate']],
  ['LockInactivity', 'Locked - Inactivity', 'danger', false, true, ['unlock', 'deactivate']],
  ['Deactivated', 'Deactivated', 'disabled', false, false, ['reactivate']],
];

describe('user status (SUV §4)', () => {
  it('the table above covers every status the module knows', () => expect(table.map(([status]) => status).sort()).toEqual([...userStatuses].sort()));

  it.each(table)('%s shows as %s in the %s style', (status, label, style) => expect(userStatusDisplay(status)).toEqual({ label, style }));

  it.each(table)('%s: enabled %s, locked %s', (status, _label, _style, enabled, locked) => {
    expect(isEnabledStatus(status)).toBe(enabled);
    expect(isLockedStatus(status)).toBe(locked);
  });

  it.each(table)('%s allows exactly its actions', (status, _label, _style, _enabled, _locked, actions) => {
    expect(allowedUserActions(status)).toEqual(actions);
    for (const action of ['unlock', 'reactivate', 'deactivate'] as const) expect(canApplyUserAction(status, action)).toBe(actions.includes(action));
  });

  it('an unknown status shows as plain text, allows nothing, and is neither enabled nor locked', () => {
    expect(userStatusDisplay('Suspended')).toEqual({ label: 'Suspended', style: 'plain' });
    expect(allowedUserActions('Suspended')).toEqual([]);
    expect(isEnabledStatus('Suspended')).toBe(false);
    expect(isLockedStatus('Suspended')).toBe(false);
    // Case matters: the server sends the values as the spec spells them.
    expect(allowedUserActions('deactivated')).toEqual([]);
  });

  it('unlock and reactivate leave the account Active, deactivate leaves it Deactivated', () =>
    expect(statusAfter).toEqual({ unlock: 'Active', reactivate: 'Active', deactivate: 'Deactivated' }));
});

describe('why and when an account was locked (issue 28)', () => {
  const now = new Date(2026, 10, 27, 15, 0);
  const seconds = (date: Date) => date.getTime() / 1000;

  it('today: the reason and the time', () =>
    expect(lockDescription('LockedPasswordAttempts', seconds(new Date(2026, 10, 27, 14, 2)), now)).toBe('Locked after 5 wrong passwords, 14:02'));

  it('another day: the date too', () =>
    expect(lockDescription('LockedMFAAttempts', seconds(new Date(2026, 10, 20, 9, 5)), now)).toBe('Locked after too many wrong verification codes, 20 Nov 2026 09:05'));

  it('no time recorded: the reason alone', () => expect(lockDescription('LockInactivity', null, now)).toBe('Locked for inactivity'));

  it.each(['Invited', 'Active', 'Normal', 'Deactivated', 'Unknown'])('%s: no lock line', (status) => expect(lockDescription(status, seconds(now), now)).toBeUndefined());
});

describe('the Permissions cell (SUV §2)', () => {
  it.each([
    ['Admin Staff (Full Access)', true],
    ['Admin Staff (Read Only)', true],
    ['Admin Staff', false],
    ['admin staff (full access)', false],
    ['Adviser', false],
  ])('%s is an admin staff role: %s', (role, admin) => expect(isAdminStaffRole(role)).toBe(admin));

  it('reads the access in words', () => {
    expect(applicationAccessText(true)).toBe('Can access your applications');
    expect(applicationAccessText(false)).toBe('No access');
  });
});

describe('a revoked invitation’s row (issue 39 point 17)', () => {
  it('says the invitation was revoked and offers only Resend; a live one says Invited and offers Resend and Revoke', () => {
    expect(rowStatusDisplay({ Status: 'Invited', InvitationRevoked: true })).toEqual({ label: 'Invitation revoked', style: 'disabled' });
    expect(invitationActions({ Status: 'Invited', InvitationRevoked: true })).toEqual(['resendInvitation']);
    expect(rowStatusDisplay({ Status: 'Invited', InvitationRevoked: false })).toEqual({ label: 'Invited', style: 'pending' });
    expect(invitationActions({ Status: 'Invited', InvitationRevoked: false })).toEqual(['resendInvitation', 'revokeInvitation']);
    expect(invitationActions({ Status: 'Invited' })).toEqual(['resendInvitation', 'revokeInvitation']);
    expect(invitationActions({ Status: 'Active', InvitationRevoked: true })).toEqual([]);
    expect(rowStatusDisplay({ Status: 'Active', InvitationRevoked: true })).toEqual({ label: 'Active', style: 'success' });
  });
});
