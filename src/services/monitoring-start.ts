import { startMonitoring } from './monitoring.ts';
import { runtimeConfig } from './runtime-config.ts';

let started: Promise<void> | undefined;

/**
 * Loads Sentry once, after the person sees a settled page: it is not needed to render, and loading
 * it later keeps 30 KiB off the path to the first useful screen. Errors before then are queued.
 * Never rejects: monitoring must not break the portal it watches.
 */
export function startMonitoringOnce(): Promise<void> {
  started ??= Promise.resolve()
    .then(() => {
      const { sentryDsn, sentryTunnel } = runtimeConfig();
      return startMonitoring({ dsn: sentryDsn, tunnel: sentryTunnel });
    })
    .catch(() => {});
  return started;
}
