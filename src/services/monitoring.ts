/**
 * Error reporting without putting Sentry on the critical path: reports are queued until
 * `startMonitoring` has lazily loaded and initialised `@sentry/react` after the first render, then
 * flushed. Window errors raised before that are queued too; Sentry's own global handlers take over
 * once it is initialised.
 */

export interface MonitoringOptions {
  dsn: string;
  /** Same-origin path the envelopes are posted to instead of the DSN's host; empty for none. */
  tunnel: string;
}

type Extra = Record<string, unknown>;
interface Report {
  error: unknown;
  extra: Extra | undefined;
}

/** Enough for a burst at boot; a flood beyond this would only repeat itself. */
const maxQueued = 50;
let queue: Report[] = [];
let send: ((report: Report) => void) | undefined;

/** Sends an error to the error-reporting service (queued until it has loaded). */
export function reportError(error: unknown, extra?: Extra): void {
  const report = { error, extra };
  if (send) send(report);
  else if (queue.length < maxQueued) queue.push(report);
}

const onWindowError = (event: ErrorEvent) => reportError(event.error ?? event.message);
const onUnhandledRejection = (event: PromiseRejectionEvent) => reportError(event.reason);

function stopEarlyCapture() {
  window.removeEventListener('error', onWindowError);
  window.removeEventListener('unhandledrejection', onUnhandledRejection);
}

/** Call first thing at boot: errors thrown before Sentry has loaded are kept for it. */
export function captureEarlyErrors(): void {
  window.addEventListener('error', onWindowError);
  window.addEventListener('unhandledrejection', onUnhandledRejection);
}

/** Loads and initialises Sentry, then sends what was queued. Without a DSN, reports are dropped. */
export async function startMonitoring({ dsn, tunnel }: MonitoringOptions): Promise<void> {
  if (!dsn) {
    stopEarlyCapture();
    queue = [];
    send = () => {};
    return;
  }
  const Sentry = await import('./sentry-client.ts');
  Sentry.init({
    dsn,
    tunnel: tunnel === '' ? undefined : tunnel,
    environment: import.meta.env.MODE,
  });
  stopEarlyCapture();
  send = ({ error, extra }) => {
    Sentry.captureException(error, extra ? { extra } : undefined);
  };
  const queued = queue;
  queue = [];
  queued.forEach(send);
}
