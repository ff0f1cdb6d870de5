import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import { hasClaim } from '../../domain/permissions.ts';
import { usersDocumentTitle, usersRequestOf } from '../../domain/users-address.ts';
import { userListMachine } from '../../machines/user-list.machine.ts';
import { SessionContext } from '../../machines/session.machine.ts';
import { noPermissionText, type UserListRow } from '../../schemas/users.schema.ts';
import { userClaimNames } from '../../domain/user-claims.ts';
import { Button } from '../ui/button.tsx';
import { Menu, MenuItem, MenuPopover, MenuTrigger } from '../ui/menu.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { useDocumentTitle } from '../shell/use-document-title.ts';
import { UsersTable, type RowDialog } from './users-table.tsx';
import { UsersPagination } from './users-pagination.tsx';
import { UserActionModal } from './user-action-modal.tsx';
import { EditPermissionsModal } from './edit-permissions-modal.tsx';
import styles from './users.module.css';

// The invite modal carries the phone metadata: it loads when New is first pressed (ARCHITECTURE §3).
const InviteUserModal = lazy(() => import('./invite-user-modal.tsx'));

export type UserListActor = ActorRefFrom<typeof userListMachine>;

/** SUV §2 /users/{pageNo}?q=&rowsPerPage=: the tenant's portal users; the red alert without the claim. */
export function UsersPage() {
  const claims = SessionContext.useSelector((snapshot) => snapshot.context.claims);
  if (!hasClaim(claims, userClaimNames.access)) {
    return (
      <section className={styles.page} aria-labelledby="users-heading">
        <h1 id="users-heading">Users</h1>
        <p role="alert" className={styles.noPermission}>
          {noPermissionText}
        </p>
      </section>
    );
  }
  return <UsersList />;
}

function UsersList() {
  const claims = SessionContext.useSelector((snapshot) => snapshot.context.claims);
  const ownEmail = SessionContext.useSelector((snapshot) => snapshot.context.email);
  const { pageNo } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const request = usersRequestOf(pageNo, search);
  const list = useActorRef(userListMachine, { input: { request } });
  // The modal open now (a view concern: which dialog, for which row); each runs its own machine.
  const [dialog, setDialog] = useState<RowDialog | { kind: 'invite' } | undefined>();

  useEffect(() => {
    const subscription = list.on('navigate', (event) => void navigate(event.address));
    return () => subscription.unsubscribe();
  }, [list, navigate]);
  const { pageNo: page, rowsPerPage, query } = request;
  useEffect(() => {
    list.send({ type: 'list.load', request: { pageNo: page, rowsPerPage, query } });
  }, [list, page, rowsPerPage, query]);

  const total = useSelector(list, (snapshot) => snapshot.context.totalRows);
  useDocumentTitle(usersDocumentTitle(total));
  const reload = useCallback(() => list.send({ type: 'list.reload' }), [list]);
  const close = useCallback(() => setDialog(undefined), []);

  return (
    <section className={styles.page} aria-labelledby="users-heading">
      <h1 id="users-heading">Users</h1>
      <ActionBar list={list} canInvite={hasClaim(claims, userClaimNames.invite)} canExport={hasClaim(claims, userClaimNames.export)} onInvite={() => setDialog({ kind: 'invite' })} />
      <UsersTable list={list} claims={claims} ownEmail={ownEmail} onOpen={setDialog} />
      <UsersPagination list={list} />
      {dialog?.kind === 'invite' && (
        <Suspense fallback={null}>
          <InviteUserModal
            canModifyAccess={hasClaim(claims, userClaimNames.editAccess)}
            settings={list.getSnapshot().context.settings}
            onChanged={reload}
            onClose={close}
          />
        </Suspense>
      )}
      {dialog?.kind === 'permissions' && (
        <EditPermissionsModal user={dialog.user} disclaimer={list.getSnapshot().context.settings?.EditPermissionsDisclaimerText ?? ''} onChanged={reload} onClose={close} />
      )}
      {dialog?.kind === 'action' && <UserActionModal user={dialog.user} action={dialog.action} onChanged={reload} onClose={close} />}
    </section>
  );
}

function ActionBar({ list, canInvite, canExport, onInvite }: { list: UserListActor; canInvite: boolean; canExport: boolean; onInvite: () => void }) {
  const searchText = useSelector(list, (snapshot) => snapshot.context.searchText);
  const exporting = useSelector(list, (snapshot) => snapshot.matches({ export: 'exporting' }));
  const exportFailed = useSelector(list, (snapshot) => snapshot.matches({ export: 'failed' }));
  const settingsReady = useSelector(list, (snapshot) => !snapshot.matches({ settings: 'loading' }));
  return (
    <div className={styles.actionBar}>
      {canInvite && (
        <Button variant="primary" onPress={onInvite} isDisabled={!settingsReady}>
          New
        </Button>
      )}
      {canExport && (
        <MenuTrigger>
          <Button isPending={exporting}>Action</Button>
          <MenuPopover>
            <Menu onAction={() => list.send({ type: 'export.start' })}>
              <MenuItem id="export">Export All to CSV</MenuItem>
            </Menu>
          </MenuPopover>
        </MenuTrigger>
      )}
      <div role="search" className={styles.search}>
        <SearchField
          aria-label="Search users by name or e-mail"
          placeholder="Search name or e-mail"
          value={searchText}
          onChange={(value) => list.send({ type: 'search.change', value })}
          onSubmit={() => list.send({ type: 'search.submit' })}
          onClear={() => list.send({ type: 'search.clear' })}
        />
        <Button onPress={() => list.send({ type: 'search.submit' })}>Search</Button>
      </div>
      <Button onPress={() => list.send({ type: 'filter.clear' })}>Clear filter</Button>
      <div role="alert" className={styles.inlineError}>
        {exportFailed && 'The export failed. Please try again.'}
      </div>
    </div>
  );
}

export type { UserListRow };
