import { lazy, Suspense } from 'react';
import type { Key } from 'react-aria-components';
import { SessionContext } from '../../machines/session.machine.ts';
import { TwoStepSetupContext } from '../../machines/two-step-setup.machine.ts';
import { Button } from '../ui/button.tsx';
import { Menu, MenuGroup, MenuItem, MenuPopover, MenuTrigger } from '../ui/menu.tsx';
import { AccountButtonContent } from './header-buttons.tsx';
import styles from './header.module.css';

// The dialog and its QR library load only when someone opens it (issue 31: shell JS budget).
const TwoStepSetupModal = lazy(() =>
  import('./two-step-setup-modal.tsx').then((module) => ({ default: module.TwoStepSetupModal })),
);

/** AM §2: the account menu shows the username, Change Password and Log Out (and two-step verification, issue 31). */
export function AccountMenu() {
  return (
    <TwoStepSetupContext.Provider>
      <AccountMenuItems />
      <TwoStepSetupDialog />
    </TwoStepSetupContext.Provider>
  );
}

function TwoStepSetupDialog() {
  const open = TwoStepSetupContext.useSelector((snapshot) => snapshot.hasTag('open'));
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <TwoStepSetupModal />
    </Suspense>
  );
}

function AccountMenuItems() {
  const twoStepSetup = TwoStepSetupContext.useActorRef();
  const displayName = SessionContext.useSelector((snapshot) => snapshot.context.displayName);
  const canChangePassword = SessionContext.useSelector((snapshot) =>
    snapshot.can({ type: 'passwordChange.open' }),
  );
  const session = SessionContext.useActorRef();

  const onAction = (key: Key) => {
    if (key === 'changePassword') session.send({ type: 'passwordChange.open' });
    if (key === 'twoStepSetup') twoStepSetup.send({ type: 'dialog.open' });
    if (key === 'logOut') session.send({ type: 'session.signOut' });
  };

  return (
    <MenuTrigger>
      <Button variant="quiet" className={styles.accountButton} aria-label={`Account: ${displayName}`}>
        <AccountButtonContent displayName={displayName} />
      </Button>
      <MenuPopover>
        <Menu
          aria-label="Account"
          onAction={onAction}
          disabledKeys={canChangePassword ? [] : ['changePassword']}
        >
          <MenuGroup heading={displayName}>
            <MenuItem id="changePassword">Change Password</MenuItem>
            <MenuItem id="twoStepSetup">Set up two-step verification</MenuItem>
            <MenuItem id="logOut">Log Out</MenuItem>
          </MenuGroup>
        </Menu>
      </MenuPopover>
    </MenuTrigger>
  );
}
