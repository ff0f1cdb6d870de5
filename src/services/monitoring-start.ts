import { startMonitoring } from './monitoring.ts';
import { runtimeConfig } from './runtime-config.ts';

/** How long after a page has settled Sentry starts loading: after the page's own chunks and data. */
const backgroundDelayMs = 3000;

let started: Promise<void> | undefined;

const whenIdle = () =>
  new Promise<void>((resolve) => {
    setTimeout(() => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(() => resolve(), { timeout: 2000 });
      else resolve();
    }, backgroundDelayMs);
  });

/**
 * Loads Sentry once, in the background after the person sees a settled page: it is not needed to
 * render, and its 30 KiB would otherwise compete with the page's own scripts and data. Errors before
 * then are queued and sent when it has loaded. Never rejects: monitoring must not break the portal.
 */
export function startMonitoringOnce(): Promise<void> {
  started ??= whenIdle()
    .then(() => {
      const { sentryDsn, sentryTunnel } = runtimeConfig();
      return startMonitoring({ dsn: sentryDsn, tunnel: sentryTunnel });
    })
    .catch(() => {});
  return started;
}
