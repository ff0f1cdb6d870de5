import { useSelector } from '@xstate/react';
import type { Claims } from '../../domain/permissions.ts';
import { hasClaim } from '../../domain/permissions.ts';
import { userClaimNames } from '../../domain/user-claims.ts';
import { lastActivityText } from '../../domain/users-address.ts';
import {
  allowedUserActions,
  applicationAccessText,
  invitationActions,
  isAdminStaffRole,
  isLockedStatus,
  lockDescription,
  rowStatusDisplay,
  type UserAction,
} from '../../domain/user-status.ts';
import type { UserListRow } from '../../schemas/users.schema.ts';
import { Button } from '../ui/button.tsx';
import { Menu, MenuItem, MenuPopover, MenuTrigger } from '../ui/menu.tsx';
import { Loader } from '../ui/loader.tsx';
import type { UserListActor } from './users-page.tsx';
import styles from './users.module.css';

export type RowAction = UserAction | 'resendInvitation' | 'revokeInvitation';
export type RowDialog = { kind: 'permissions'; user: UserListRow } | { kind: 'action'; user: UserListRow; action: RowAction };

const actionLabels: Record<RowAction, string> = {
  unlock: 'Unlock',
  reactivate: 'Reactivate',
  deactivate: 'Deactivate',
  resendInvitation: 'Resend invitation',
  revokeInvitation: 'Revoke invitation',
};

/** SUV §6: what this viewer may do to this row (the status allows it and the viewer holds the claim). */
function menuActions(row: UserListRow, claims: Claims, own: boolean): RowAction[] {
  const byStatus = allowedUserActions(row.Status).filter((action) =>
    action === 'unlock' ? hasClaim(claims, userClaimNames.unlock) : hasClaim(claims, userClaimNames.enableDisable) && !(own && action === 'deactivate'),
  );
  const invitation: RowAction[] = hasClaim(claims, userClaimNames.invite) ? invitationActions(row) : [];
  return [...byStatus, ...invitation];
}

export const fullName = (row: Pick<UserListRow, 'FirstName' | 'LastName'>) => `${row.FirstName} ${row.LastName}`.trim();

/** SUV §2 the users table: Name, Role, Status, Permissions (with the modify-access claim), Last Activity, Actions. */
export function UsersTable({ list, claims, ownEmail, onOpen }: { list: UserListActor; claims: Claims; ownEmail: string; onOpen: (dialog: RowDialog) => void }) {
  const rows = useSelector(list, (snapshot) => snapshot.context.users);
  const loading = useSelector(list, (snapshot) => snapshot.matches({ list: 'loading' }));
  const failed = useSelector(list, (snapshot) => snapshot.matches({ list: 'failed' }));
  const query = useSelector(list, (snapshot) => snapshot.context.request.query);
  const pageNo = useSelector(list, (snapshot) => snapshot.context.request.pageNo);
  const showPermissions = hasClaim(claims, userClaimNames.editAccess);

  if (loading && rows.length === 0) return <Loader text="Loading user list..." />;
  // SUV §8 gives a failed load an empty list with a failed status: the status is said, with Retry,
  // rather than 'No Users.', which would claim the tenant has none (issue 39, readings).
  if (failed) {
    return (
      <div role="alert" className={`${styles.empty} ${styles.loadFailed}`}>
        <span>The users could not be loaded.</span>
        <Button onPress={() => list.send({ type: 'list.reload' })}>Retry</Button>
      </div>
    );
  }
  // An address past the last page (/users/999) says so and leads back (issue 39 point 12).
  if (rows.length === 0 && pageNo > 1) {
    return (
      <div className={`${styles.empty} ${styles.loadFailed}`}>
        <span>Page {pageNo} has no users.</span>
        <Button onPress={() => list.send({ type: 'page.go', pageNo: 1 })}>Go to page 1</Button>
      </div>
    );
  }
  if (rows.length === 0) return <p className={styles.empty}>{query.trim() !== '' ? 'No Results.' : 'No Users.'}</p>;
  return (
    <div className={styles.tableWrap} aria-busy={loading}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            {showPermissions && <th scope="col">Permissions</th>}
            <th scope="col">Last Activity</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const own = row.Email.toLowerCase() === ownEmail.toLowerCase();
            const status = rowStatusDisplay(row);
            const deactivated = row.Status === 'Deactivated';
            const lock = lockDescription(row.Status, row.LockedTimestamp);
            const actions = menuActions(row, claims, own);
            const name = fullName(row);
            return (
              <tr key={row.GlobalUserId} className={deactivated ? styles.disabledRow : undefined}>
                <th scope="row" className={styles.nameCell}>
                  <span>{name}</span>
                  <span className={styles.email}>{row.Email}</span>
                </th>
                <td>{row.RoleName}</td>
                <td>
                  <span className={styles.status} data-style={status.style}>
                    {status.label}
                  </span>
                  {lock && <span className={styles.lockReason}>{lock}</span>}
                  {isLockedStatus(row.Status) && hasClaim(claims, userClaimNames.unlock) && (
                    <Button variant="quiet" onPress={() => onOpen({ kind: 'action', user: row, action: 'unlock' })} aria-label={`Unlock ${name}`}>
                      Unlock
                    </Button>
                  )}
                </td>
                {showPermissions && (
                  <td>
                    {isAdminStaffRole(row.RoleName) && (
                      <span className={styles.permissions}>
                        <span>{applicationAccessText(row.HasApplicationAccess)}</span>
                        {!own && (
                          <Button
                            variant="quiet"
                            isDisabled={deactivated}
                            aria-label={`Edit permissions of ${name}`}
                            onPress={() => onOpen({ kind: 'permissions', user: row })}
                          >
                            Edit
                          </Button>
                        )}
                      </span>
                    )}
                  </td>
                )}
                <td>{lastActivityText(row.LastSuccessfulLoginTimestamp)}</td>
                <td>
                  {actions.length > 0 && (
                    <MenuTrigger>
                      <Button aria-label={`Actions for ${name}`}>Actions</Button>
                      <MenuPopover>
                        <Menu onAction={(key) => onOpen({ kind: 'action', user: row, action: actions.find((action) => action === key) ?? actions[0]! })}>
                          {actions.map((action) => (
                            <MenuItem key={action} id={action}>
                              {actionLabels[action]}
                            </MenuItem>
                          ))}
                        </Menu>
                      </MenuPopover>
                    </MenuTrigger>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
