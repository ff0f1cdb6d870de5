import { Navigate, Outlet } from 'react-router-dom';
import type { SnapshotFrom } from 'xstate';
import { sessionTexts } from '../../domain/session.ts';
import { SessionContext, type sessionMachine } from '../../machines/session.machine.ts';
import { Loader } from '../ui/loader.tsx';
import { platformName, useBranding } from './branding.ts';
import { UnavailableNotice } from './unavailable-notice.tsx';
import { useDocumentTitle } from './use-document-title.ts';

/** The authenticated part of the portal: one session actor for every route below it. */
export function SessionRoot() {
  return (
    <SessionContext.Provider>
      <SessionGate />
    </SessionContext.Provider>
  );
}

type Screen =
  | 'shell'
  | 'timedOut'
  | 'tenantNotFound'
  | 'unavailable'
  | 'sessionLost'
  | 'federated'
  | 'redirecting'
  | 'checking';

function screenOf(snapshot: SnapshotFrom<typeof sessionMachine>): Screen {
  if (snapshot.matches('signedIn')) return 'shell';
  if (snapshot.matches({ expired: 'timedOut' })) return 'timedOut';
  if (snapshot.matches('tenantNotFound')) return 'tenantNotFound';
  if (snapshot.matches('unavailable')) return 'unavailable';
  if (snapshot.matches('sessionLost')) return 'sessionLost';
  if (snapshot.matches('federated')) return 'federated';
  if (snapshot.matches('redirecting') || snapshot.matches('signingOut')) return 'redirecting';
  return 'checking';
}

/** Renders the loader screens of AM §2 until the session is signed in, then the routes. */
export function SessionGate() {
  const screen = SessionContext.useSelector(screenOf);
  const tenant = SessionContext.useSelector((snapshot) => snapshot.context.tenant);
  // The shell titles its own pages; these screens carry the tenant's name.
  useDocumentTitle(screen === 'shell' ? undefined : tenant?.DisplayName || platformName);
  useBranding(tenant);

  return (
    <>
      {screen === 'shell' && <Outlet />}
      {screen === 'timedOut' && <Navigate to="/timeout" replace />}
      {screen === 'tenantNotFound' && <UnavailableNotice reason="tenant" support={tenant} />}
      {screen === 'unavailable' && <UnavailableNotice reason="authentication" support={tenant} />}
      {screen === 'sessionLost' && <Loader screen text={sessionTexts.sessionLost} />}
      {screen === 'federated' && <Loader screen text={sessionTexts.federated} />}
      {screen === 'redirecting' && <Loader screen text={sessionTexts.redirecting} />}
      {screen === 'checking' && <Loader screen text={sessionTexts.checking} />}
    </>
  );
}

/** /authentication/callback once signed in: on to the address the person had asked for. */
export function CallbackLanding() {
  const returnTo = SessionContext.useSelector((snapshot) => snapshot.context.returnTo);
  return <Navigate to={returnTo} replace />;
}
