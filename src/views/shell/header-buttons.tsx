import { Button } from '../ui/button.tsx';
import { ChevronDownIcon, MenuIcon, UserIcon } from '../ui/icons.tsx';
import styles from './header.module.css';

export function AccountButtonContent({ displayName }: { displayName: string }) {
  return (
    <>
      <UserIcon />
      <span className={styles.accountName}>{displayName}</span>
      <ChevronDownIcon />
    </>
  );
}

/**
 * The menus' code loads just after the shell first renders; until then their buttons look the
 * same and are announced busy (react-aria `isPending` keeps them focusable).
 */
export function AccountMenuPending({ displayName }: { displayName: string }) {
  return (
    <Button variant="quiet" className={styles.accountButton} aria-label={`Account: ${displayName}`} isPending>
      <AccountButtonContent displayName={displayName} />
    </Button>
  );
}

export function MobileNavPending() {
  return (
    <Button variant="icon" aria-label="Navigation menu" isPending>
      <MenuIcon />
    </Button>
  );
}
