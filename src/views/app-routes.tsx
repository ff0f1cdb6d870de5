import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { HomeRedirect } from './shell/home-redirect.tsx';
import { RouteError } from './shell/route-error.tsx';
import { CallbackLanding, SessionRoot } from './shell/session-root.tsx';
import { rememberListLocation } from './shell/list-return.ts';
import { ShellLayout } from './shell/shell-layout.tsx';
// In the main bundle: the session often expires because the network went away, when no chunk could load.
import { TimeoutPage } from './shell/timeout-page.tsx';

/** A named export of a lazily loaded module, for `React.lazy`. */
function lazyNamed<K extends string, M extends Record<K, ComponentType>>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<ComponentType> {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

const applicationList = () => import('./applications/application-list-page.tsx');
const MyApplicationsPage = lazyNamed(applicationList, 'MyApplicationsListPage');
const AllApplicationsPage = lazyNamed(applicationList, 'AllApplicationsListPage');
const ApplicationPage = lazyNamed(() => import('./applications/detail/application-detail-page.tsx'), 'ApplicationDetailPage');
const AdminPage = lazyNamed(() => import('./admin/admin-configuration-page.tsx'), 'AdminConfigurationPage');
const UsersPage = lazyNamed(() => import('./users/users-page.tsx'), 'UsersPage');
const VerificationsPage = lazyNamed(() => import('./verifications/verifications-page.tsx'), 'VerificationsPage');
const VerificationDetailsPage = lazyNamed(() => import('./verifications/verification-details-page.tsx'), 'VerificationDetailsPage');
const ReportsPage = lazyNamed(() => import('./reports/reports-page.tsx'), 'ReportsPage');
const SettingsPage = lazyNamed(() => import('./shell/settings-page.tsx'), 'SettingsPage');

/** SUV §2 shell routes; the ids name the breadcrumbs and titles in shell/page-info.ts. */
const shellRoutes: RouteObject[] = [
  { index: true, element: <HomeRedirect /> },
  { id: 'admin', path: 'admin', element: <AdminPage /> },
  { id: 'reports', path: 'reports', element: <ReportsPage /> },
  { id: 'users', path: 'users/:pageNo?', element: <UsersPage /> },
  { id: 'settings', path: 'settings', element: <SettingsPage /> },
  { id: 'listAll', path: 'list/all/:pageNo?/:rowsPerPage?', element: <AllApplicationsPage /> },
  { id: 'list', path: 'list/:pageNo?/:rowsPerPage?', element: <MyApplicationsPage /> },
  { id: 'application', path: 'application/:id', element: <ApplicationPage /> },
  { id: 'verificationDetails', path: 'verifications/details/:id', element: <VerificationDetailsPage /> },
  { id: 'verifications', path: 'verifications', element: <VerificationsPage /> },
  { path: '*', element: <Navigate to="/" replace /> },
];

/**
 * SUV §2 top-level routes: /timeout stands alone; /tenantnotfound, /federated and the callback are
 * screens of the session (src/machines/session.machine.ts); everything else is the shell.
 */
export function createAppRouter() {
  const router = createBrowserRouter([
    { path: '/timeout', element: <TimeoutPage />, errorElement: <RouteError /> },
    {
      element: <SessionRoot />,
      errorElement: <RouteError />,
      children: [
        { path: 'authentication/callback', element: <CallbackLanding /> },
        // The session shows the tenant-not-found page; once the tenant proves valid and the user is signed in: home.
        { path: 'tenantnotfound', element: <Navigate to="/" replace /> },
        // Signed in already (the SSO redirect never returns here): home.
        { path: 'federated/:token/:hash', element: <Navigate to="/" replace /> },
        { element: <ShellLayout />, errorElement: <RouteError />, children: shellRoutes },
      ],
    },
  ]);
  // The detail's way back to the list it was opened from (shell/list-return.ts).
  rememberListLocation(router.state.location);
  router.subscribe((state) => rememberListLocation(state.location));
  return router;
}
