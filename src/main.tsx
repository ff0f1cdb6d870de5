import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { silentSignInCallbackPath } from './domain/session.ts';
import { captureEarlyErrors, reportError } from './services/monitoring.ts';
import { loadRuntimeConfig } from './services/runtime-config.ts';
import { createAppRouter } from './views/app-routes.tsx';
import { UnavailableNotice } from './views/shell/unavailable-notice.tsx';
import './views/ui/theme.css';

/**
 * Boot: the runtime configuration, then the router; the session starts Sentry once a page has settled. In the
 * hidden iframe of a silent sign-in only the callback runs and nothing is rendered.
 */
async function boot(container: HTMLElement) {
  captureEarlyErrors();
  const root = createRoot(container, {
    onUncaughtError: (error) => reportError(error),
    onCaughtError: (error) => reportError(error),
    onRecoverableError: (error) => reportError(error),
  });

  try {
    await loadRuntimeConfig();
  } catch {
    // Reported by the HTTP wrapper (queued until monitoring could start, which it cannot without a DSN).
    root.render(<UnavailableNotice reason="authentication" support={undefined} />);
    return;
  }

  root.render(
    <StrictMode>
      <RouterProvider router={createAppRouter()} />
    </StrictMode>,
  );
}

const container = document.getElementById('root');
if (window.location.pathname === silentSignInCallbackPath) {
  void import('./services/silent-sign-in.ts').then(({ completeSilentSignIn }) => completeSilentSignIn());
} else if (container) {
  void boot(container);
}
