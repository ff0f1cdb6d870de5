// Loaded lazily by monitoring.ts. Named imports (rather than `import('@sentry/react')` as a whole
// namespace) let the bundler drop tracing, replay and feedback, which this portal does not use.
export { init, captureException } from '@sentry/react';
