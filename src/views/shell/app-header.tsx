import { lazy, Suspense, useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { NavigationItem } from '../../domain/navigation.ts';
import { SessionContext } from '../../machines/session.machine.ts';
import { Breadcrumbs, type Crumb } from '../ui/breadcrumbs.tsx';
import { Button } from '../ui/button.tsx';
import { BellIcon } from '../ui/icons.tsx';
import { platformName } from './branding.ts';
import { AccountMenuPending, MobileNavPending } from './header-buttons.tsx';
import { LiveStatus } from './live-status.tsx';
import styles from './header.module.css';

// The menus (react-aria overlays and collections) are the heaviest part of the header: they load
// right after the shell's first paint instead of before it (a lazy component mounted in the first
// render would request its code during that render).
const AccountMenu = lazy(() =>
  import('./account-menu.tsx').then((module) => ({ default: module.AccountMenu })),
);
const MobileNav = lazy(() => import('./mobile-nav.tsx').then((module) => ({ default: module.MobileNav })));

/** AM §2 header: breadcrumbs, a disabled notifications icon and the account menu; the hamburger on phones. */
export function AppHeader({ crumbs, items }: { crumbs: readonly Crumb[]; items: readonly NavigationItem[] }) {
  const tenant = SessionContext.useSelector((snapshot) => snapshot.context.tenant);
  const displayName = SessionContext.useSelector((snapshot) => snapshot.context.displayName);
  const name = tenant?.DisplayName || platformName;
  const painted = usePainted();
  return (
    <header className={styles.header}>
      <div className={styles.mobileOnly}>
        {painted ? (
          <Suspense fallback={<MobileNavPending />}>
            <MobileNav items={items} />
          </Suspense>
        ) : (
          <MobileNavPending />
        )}
      </div>
      <RouterLink to="/" className={styles.brand} aria-label={`${name} home`}>
        {tenant?.LogoUrl && <img className={styles.logo} src={tenant.LogoUrl} alt="" />}
        <span className={styles.brandName}>{name}</span>
      </RouterLink>
      <div className={styles.crumbs}>{crumbs.length > 0 && <Breadcrumbs crumbs={crumbs} />}</div>
      <div className={styles.actions}>
        <LiveStatus />
        <Button variant="icon" isDisabled aria-label="Notifications">
          <BellIcon />
        </Button>
        {painted ? (
          <Suspense fallback={<AccountMenuPending displayName={displayName} />}>
            <AccountMenu />
          </Suspense>
        ) : (
          <AccountMenuPending displayName={displayName} />
        )}
      </div>
    </header>
  );
}

/** False in the first render, true from the frame after it was painted. */
function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setPainted(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  return painted;
}
