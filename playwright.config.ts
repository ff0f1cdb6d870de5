import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests drive Debian's Chromium against the real server (built portal, real login,
 * fresh PGlite data dir per run, named by its port: runs on other E2E_PORTs can go side by side).
 * A second server with very short token lifetimes exercises expiry.
 */
const port = Number(process.env.E2E_PORT ?? 8181);
const shortPort = port + 1;

const server = (listenPort: number, env: Record<string, string>) => ({
  command: `rm -rf ${env.DATA_DIR} && node --import tsx server/main.ts`,
  url: `http://localhost:${listenPort}/api/tenant/validate`,
  reuseExistingServer: false,
  timeout: 120_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
  env: { PORT: String(listenPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
});

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    // Every journey signs in from 127.0.0.1, and several fail on purpose (wrong passwords, locks, wrong
    // codes): the per-address failure limit (tested in tests/server/abuse-limits.test.ts) would turn
    // later journeys away, so this server allows more than the suite makes.
    server(port, { DATA_DIR: `.data/e2e-${port}`, RATE_LIMIT_SIGN_IN_FAILURES: '200' }),
    server(shortPort, {
      DATA_DIR: `.data/e2e-${shortPort}`,
      ACCESS_TOKEN_TTL: '4',
      TOKEN_REFRESH_LEAD: '2',
      SESSION_MAX_TTL: '8',
    }),
  ],
});

export const shortLivedBaseUrl = `http://localhost:${shortPort}`;
