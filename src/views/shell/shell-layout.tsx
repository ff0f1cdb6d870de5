import { lazy, Suspense, useMemo } from 'react';
import { Outlet } from 'react-router-dom';
import { navigationItems } from '../../domain/navigation.ts';
import { canSeeAllApps, canSeeMyApps } from '../../domain/permissions.ts';
import { LiveUpdatesContext } from '../../machines/live-updates.machine.ts';
import { SessionContext } from '../../machines/session.machine.ts';
import { Button } from '../ui/button.tsx';
import { Loader } from '../ui/loader.tsx';
import { platformName } from './branding.ts';
import { AppHeader } from './app-header.tsx';
import { useCurrentPage } from './page-info.ts';
import { SideNav } from './side-nav.tsx';
import { useDocumentTitle } from './use-document-title.ts';
import styles from './shell.module.css';

// Loaded only when someone opens it: the form and the modal stay out of the shell's first load.
const ChangePasswordModal = lazy(() =>
  import('./change-password-modal.tsx').then((module) => ({ default: module.ChangePasswordModal })),
);

/** The signed-in shell (SUV §2): skip link, header, side navigation and the page. */
export function ShellLayout() {
  const claims = SessionContext.useSelector((snapshot) => snapshot.context.claims);
  const tenant = SessionContext.useSelector((snapshot) => snapshot.context.tenant);
  const helpUrl = tenant?.HelpUrl ?? '';
  const items = useMemo(() => navigationItems(claims, helpUrl), [claims, helpUrl]);
  const page = useCurrentPage();
  useDocumentTitle(page.title ?? (tenant?.DisplayName || platformName));
  // One live event stream per signed-in tab, for the header, the list and the detail (issue 42).
  const listens = canSeeMyApps(claims) || canSeeAllApps(claims);

  return (
    <LiveUpdatesContext.Provider options={{ input: { enabled: listens } }}>
      <div className={styles.shell}>
        <a className={styles.skipLink} href="#main">
          Skip to main content
        </a>
        <AppHeader crumbs={page.crumbs} items={items} />
        <SideNav items={items} />
        <main id="main" tabIndex={-1} className={styles.main}>
          <Notice />
          <Suspense fallback={<Loader text="Loading..." />}>
            <Outlet />
          </Suspense>
        </main>
        <PasswordDialog />
      </div>
    </LiveUpdatesContext.Provider>
  );
}

/** A message left by a workflow that has closed, e.g. the server's answer to a password change. */
function Notice() {
  const notice = SessionContext.useSelector((snapshot) => snapshot.context.notice);
  const session = SessionContext.useActorRef();
  if (!notice) return null;
  return (
    <div className={styles.notice}>
      <p role="status">{notice}</p>
      <Button variant="quiet" onPress={() => session.send({ type: 'notice.dismiss' })}>
        Dismiss
      </Button>
    </div>
  );
}

/** The Change Password dialog, while the session has it open. */
function PasswordDialog() {
  const dialog = SessionContext.useSelector((snapshot) => snapshot.children.changePassword);
  if (!dialog) return null;
  return (
    <Suspense fallback={null}>
      <ChangePasswordModal dialog={dialog} />
    </Suspense>
  );
}
