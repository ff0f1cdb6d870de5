import * as z from 'zod';
import { parseTrustProxy } from './trust-proxy.ts';

const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Every knob the server reads from the environment; README "Configuration" documents each. */
const EnvironmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('.data/pglite'),
  ACCESS_TOKEN_TTL: seconds(15 * 60),
  SESSION_IDLE_TTL: seconds(30 * 60),
  SESSION_MAX_TTL: seconds(12 * 60 * 60),
  TOKEN_REFRESH_LEAD: seconds(120),
  SENTRY_DSN: z.string().default(''),
  // Proxies whose X-Forwarded-* headers are believed: off, a hop count, or their addresses (server/trust-proxy.ts).
  TRUST_PROXY: z.string().default('').superRefine((value, context) => {
    const trust = parseTrustProxy(value);
    if (typeof trust === 'string') context.addIssue({ code: 'custom', message: trust });
  }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  // Abuse limits (docs/decisions/003-abuse-limits.md): requests per address or account per RATE_LIMIT_WINDOW.
  RATE_LIMIT_WINDOW: seconds(60),
  RATE_LIMIT_SIGN_IN: count(60),
  RATE_LIMIT_TOKEN: count(300),
  RATE_LIMIT_MONITORING: count(30),
  RATE_LIMIT_WRITES_PER_ADDRESS: count(1200),
  RATE_LIMIT_WRITES_PER_ACCOUNT: count(300),
  RATE_LIMIT_SIGN_IN_FAILURES: count(10),
  RATE_LIMIT_SIGN_IN_FAILURE_WINDOW: seconds(15 * 60),
  MONITORING_MAX_ENVELOPES: count(500),
  // Live event streams (docs/decisions/012-live-changes.md) open at once per account and per instance; more get 429.
  LIVE_STREAMS_PER_ACCOUNT: count(10),
  LIVE_STREAMS_PER_INSTANCE: count(2000),
  // Documents (docs/decisions/004): where their bytes live, and the upload limits.
  FILES_DIR: z.string().default(''),
  DOCUMENT_MAX_FILE_BYTES: count(25 * 1024 * 1024),
  DOCUMENT_MAX_REQUEST_BYTES: count(100 * 1024 * 1024),
  DOCUMENT_MAX_FILES: count(20),
  // Bulk uploads read at once by this instance; more are answered Busy (server/bulk-upload/import-slots.ts).
  BULK_UPLOAD_CONCURRENCY: count(2),
  // Mail (docs/decisions/006-outbox.md): SMTP when set, otherwise messages stay in the outbox (page /outbox).
  SMTP_URL: z.string().regex(/^(smtps?:\/\/.+)?$/, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.email().default('no-reply@portal.invalid'),
  // On SIGTERM: how long readiness answers 503 before the instance stops accepting (README "Running several instances").
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  // Prometheus metrics at /metrics, only with this bearer token; off when empty (README "Running several instances").
  METRICS_TOKEN: z.string().default(''),
  // Depersonalisation on PGlite rewrites the tables it touched and drops the WAL that held the old values (server/db/freed-space.ts).
  DEPERSONALISE_SCRUB: z.enum(['on', 'off']).default('on'),
});

export type ServerConfig = z.infer<typeof EnvironmentSchema>;

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = EnvironmentSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid environment: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** Sentry's default when no DSN is configured: a syntactically valid DSN whose envelopes go to our tunnel. */
export const embeddedSentryDsn = 'https://public@monitoring.invalid/1';
