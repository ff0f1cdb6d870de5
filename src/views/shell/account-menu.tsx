import type { Key } from 'react-aria-components';
import { SessionContext } from '../../machines/session.machine.ts';
import { Button } from '../ui/button.tsx';
import { Menu, MenuGroup, MenuItem, MenuPopover, MenuTrigger } from '../ui/menu.tsx';
import { AccountButtonContent } from './header-buttons.tsx';
import styles from './header.module.css';

/** AM §2: the account menu shows the username, Change Password and Log Out. */
export function AccountMenu() {
  const displayName = SessionContext.useSelector((snapshot) => snapshot.context.displayName);
  const canChangePassword = SessionContext.useSelector((snapshot) =>
    snapshot.can({ type: 'passwordChange.open' }),
  );
  const session = SessionContext.useActorRef();

  const onAction = (key: Key) => {
    if (key === 'changePassword') session.send({ type: 'passwordChange.open' });
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
            <MenuItem id="logOut">Log Out</MenuItem>
          </MenuGroup>
        </Menu>
      </MenuPopover>
    </MenuTrigger>
  );
}
