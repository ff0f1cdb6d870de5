import { defineConfig } from '@playwright/test';
import { e2ePort, serverPorts, e2eWorkers } from './tests/e2e/ports.ts';

/**
 * End-to-end tests drive Debian's Chromium against the real server (built portal, real login).
 * Each worker has its own pair of servers, on its own copy of one freshly seeded PGlite data dir:
 * the main server, and one with very short token lifetimes that exercises expiry. The workers never
 * see each other's writes, so a journey meets the data exactly as in a run on one worker (files
 * still run one at a time within a worker). Data dirs are named by port: runs on other E2E_PORTs
 * can go side by side.
 */
const template = `.data/e2e-${e2ePort}-template`;
const serverCommand = (dataDir: string) => `rm -rf ${dataDir} && cp -r ${template} ${dataDir} && exec node --import tsx server/main.ts`;
// Playwright starts the web servers one after another, in this order: the first seeds the template.
const seedTemplate = `rm -rf ${template} && node --import tsx scripts/seed-data-dir.ts ${template}`;

const server = (listenPort: number, env: Record<string, string>, prepare?: string) => {
  const dataDir = `.data/e2e-${listenPort}`;
  return {
    command: prepare ? `${prepare} && ${serverCommand(dataDir)}` : serverCommand(dataDir),
    url: `http://localhost:${listenPort}/api/tenant/validate`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: { PORT: String(listenPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir, ...env },
  };
};

// Every journey signs in from 127.0.0.1, and several fail on purpose (wrong passwords, locks, wrong
// codes): the per-address failure limit (tested in tests/server/abuse-limits.test.ts) would turn
// later journeys away, so this server allows more than the suite makes.
const mainServer = { RATE_LIMIT_SIGN_IN_FAILURES: '200' };
const shortLivedServer = { ACCESS_TOKEN_TTL: '4', TOKEN_REFRESH_LEAD: '2', SESSION_MAX_TTL: '8' };

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: e2eWorkers,
  retries: 0,
  reporter: [['list']],
  use: {
    // A failed journey keeps its trace: every action's call log and DOM snapshots. Without the
    // screencast: its frames kept Chromium's GPU process busy for a fifth of the suite's CPU time
    // (27 of 128 s on two spec files), and the snapshots show what a frame would.
    trace: { mode: 'retain-on-failure', screenshots: false },
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
  webServer: Array.from({ length: e2eWorkers }, (_, worker) => {
    const ports = serverPorts(worker);
    return [server(ports.main, mainServer, worker === 0 ? seedTemplate : undefined), server(ports.shortLived, shortLivedServer)];
  }).flat(),
});
