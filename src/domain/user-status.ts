/**
 * SUV §4 user status: the values, how each is shown, which are enabled or locked, and which
 * actions each allows. Shared by the users page and the server, so the menu offers exactly what the
 * server accepts.
 */
export const userStatuses = [
  'Invited',
  'Active',
  'Normal',
  'LockedPasswordAttempts',
  'LockedMFAAttempts',
  'LockInactivity',
  'Deactivated',
] as const;
export type UserStatus = (typeof userStatuses)[number];

export type UserStatusStyle = 'pending' | 'success' | 'danger' | 'disabled';

const statusDisplay: Record<UserStatus, { label: string; style: UserStatusStyle }> = {
  Invited: { label: 'Invited', style: 'pending' },
  Active: { label: 'Active', style: 'success' },
  Normal: { label: 'Active', style: 'success' },
  LockedPasswordAttempts: { label: 'Locked - Invalid password', style: 'danger' },
  LockedMFAAttempts: { label: 'Locked - Invalid MFA', style: 'danger' },
  LockInactivity: { label: 'Locked - Inactivity', style: 'danger' },
  Deactivated: { label: 'Deactivated', style: 'disabled' },
};

const isKnownStatus = (status: string): status is UserStatus => userStatuses.some((known) => known === status);

/** ARCHITECTURE §5: an unknown status renders as plain text, never crashes. */
export function userStatusDisplay(status: string): { label: string; style: UserStatusStyle | 'plain' } {
  return isKnownStatus(status) ? statusDisplay[status] : { label: status, style: 'plain' };
}

/** A row's status as shown: an Invited row whose invitation was revoked says so (issue 39 point 17). */
export function rowStatusDisplay(row: { Status: string; InvitationRevoked?: boolean | undefined }): { label: string; style: UserStatusStyle | 'plain' } {
  if (row.Status === 'Invited' && row.InvitationRevoked === true) return { label: 'Invitation revoked', style: 'disabled' };
  return userStatusDisplay(row.Status);
}

export type InvitationAction = 'resendInvitation' | 'revokeInvitation';

/** An Invited row's invitation actions: a revoked invitation can only be sent again (a new link), not revoked again. */
export function invitationActions(row: { Status: string; InvitationRevoked?: boolean | undefined }): InvitationAction[] {
  if (row.Status !== 'Invited') return [];
  return row.InvitationRevoked === true ? ['resendInvitation'] : ['resendInvitation', 'revokeInvitation'];
}

export const enabledStatuses: readonly UserStatus[] = ['Invited', 'Active', 'Normal'];
export const lockedStatuses: readonly UserStatus[] = ['LockedPasswordAttempts', 'LockedMFAAttempts', 'LockInactivity'];

export const isEnabledStatus = (status: string): boolean => enabledStatuses.some((enabled) => enabled === status);
export const isLockedStatus = (status: string): boolean => lockedStatuses.some((locked) => locked === status);

export type UserAction = 'unlock' | 'reactivate' | 'deactivate';

/** SUV §4: active or locked users can be deactivated, deactivated ones reactivated, locked ones unlocked. */
export function allowedUserActions(status: string): UserAction[] {
  if (status === 'Deactivated') return ['reactivate'];
  if (isLockedStatus(status)) return ['unlock', 'deactivate'];
  if (status === 'Active' || status === 'Normal') return ['deactivate'];
  return [];
}

export const canApplyUserAction = (status: string, action: UserAction): boolean => allowedUserActions(status).includes(action);

/** The status an action leaves the account in. */
export const statusAfter: Record<UserAction, UserStatus> = { unlock: 'Active', reactivate: 'Active', deactivate: 'Deactivated' };

const lockReasons: Partial<Record<UserStatus, string>> = {
  LockedPasswordAttempts: 'Locked after 5 wrong passwords',
  LockedMFAAttempts: 'Locked after too many wrong verification codes',
  LockInactivity: 'Locked for inactivity',
};

/**
 * Why and when a locked account was locked, as its row shows it: 'Locked after 5 wrong passwords,
 * 14:02' (the time in the viewer's zone; the date too when it was not today). Undefined when not locked.
 */
export function lockDescription(status: string, lockedAtSeconds: number | null, now: Date = new Date()): string | undefined {
  const reason = isKnownStatus(status) ? lockReasons[status] : undefined;
  if (!reason) return undefined;
  if (lockedAtSeconds === null) return reason;
  const at = new Date(lockedAtSeconds * 1000);
  const time = at.toLocaleTimeString('en-AU', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const sameDay = at.toDateString() === now.toDateString();
  return `${reason}, ${sameDay ? time : `${at.toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' })} ${time}`}`;
}

/** SUV §2: the Permissions cell appears only for the two admin staff roles. */
export const adminStaffRoles = ['Admin Staff (Full Access)', 'Admin Staff (Read Only)'] as const;
export const isAdminStaffRole = (roleName: string): boolean => adminStaffRoles.some((role) => role === roleName);

export const applicationAccessText = (hasAccess: boolean) => (hasAccess ? 'Can access your applications' : 'No access');
