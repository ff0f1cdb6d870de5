// In Chromium, through the real login page:
// - login round trip: submit on the login page → page rendered (budget ≤ 1.5 s);
// - JavaScript requested from the sign-in redirect until the page rendered, gzip: the shell
//   (/settings, budget ≤ 200 KiB) and the application list route (/list, budget ≤ 250 KiB).
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { startServerProcess, stopProcess, report, percentile } from './support.ts';

const { child, port } = await startServerProcess({ DATA_DIR: '.data/bench-login' });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

/** Signs in at `path` in a fresh browser context; returns the round trip and the gzip JS until rendered. */
async function signInOnce(browser: Browser, path: string, rendered: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts = new Map<string, Promise<number>>();
  let done = false;
  page.on('response', (response) => {
    if (!done && response.request().resourceType() === 'script') {
      scripts.set(response.url(), response.body().then((body) => gzipSync(body).length, () => 0));
    }
  });
  await page.goto(`http://localhost:${port}${path}`);
  await page.getByLabel('Email').fill('admin@demo.test');
  await page.getByLabel('Password').fill('Demo-Passw0rd!');
  const submitted = performance.now();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator(rendered).first().waitFor();
  const roundTrip = performance.now() - submitted;
  done = true;
  const gzipBytes = (await Promise.all(scripts.values())).reduce((sum, size) => sum + size, 0);
  await context.close();
  return { roundTrip, gzipKiB: gzipBytes / 1024 };
}

try {
  const shell = [];
  for (let run = 0; run < 6; run++) shell.push(await signInOnce(browser, '/settings', 'nav >> text=Settings'));
  const list = [];
  for (let run = 0; run < 3; run++) list.push(await signInOnce(browser, '/list', '[role=grid] [role=row] >> nth=1'));
  const roundTrips = shell.map((run) => run.roundTrip);
  console.log(`login round trips to the shell (ms): ${roundTrips.map((ms) => ms.toFixed(0)).join(', ')}`);
  report('login round trip, submit → shell (median)', percentile(roundTrips, 50), 1500, 'ms');
  report('login round trip, submit → shell (worst)', Math.max(...roundTrips), 1500, 'ms');
  report('login round trip, submit → list rows (median)', percentile(list.map((run) => run.roundTrip), 50), 1500, 'ms');
  report('JS, sign-in redirect → shell rendered (gzip)', shell[0]!.gzipKiB, 200, 'KiB');
  report('JS, sign-in redirect → list rendered (gzip)', list[0]!.gzipKiB, 250, 'KiB');
} finally {
  await browser.close();
  await stopProcess(child);
}
