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

/**
 * Signs in at `path` in a fresh browser context. Returns the round trip and the gzip size of the
 * scripts requested before `rendered` first appeared in the DOM (recorded in the page itself by a
 * MutationObserver, so chunks fetched just after the render are not counted by accident).
 */
async function signInOnce(browser: Browser, path: string, rendered: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript((selector) => {
    const observer = new MutationObserver(() => {
      if (document.querySelector(selector)) {
        Object.assign(window, { renderedAt: performance.timeOrigin + performance.now() });
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  }, rendered);
  const requests: { url: string; at: number; size: Promise<number> }[] = [];
  page.on('request', (request) => {
    if (request.resourceType() !== 'script') return;
    const size = request.response().then((response) => response?.body() ?? Buffer.alloc(0)).then((body) => gzipSync(body).length, () => 0);
    requests.push({ url: request.url(), at: Date.now(), size });
  });
  await page.goto(`http://localhost:${port}${path}`);
  await page.getByLabel('Email').fill('admin@demo.test');
  await page.getByLabel('Password').fill('Demo-Passw0rd!');
  const submitted = Date.now();
  await page.getByRole('button', { name: 'Sign in' }).click();
  const renderedAt = await (await page.waitForFunction(() => Reflect.get(window, 'renderedAt'), undefined, { timeout: 30_000 })).jsonValue();
  if (typeof renderedAt !== 'number') throw new Error('render time missing');
  // A script cached under the same URL is counted once, as the browser loads it once.
  const counted = new Map<string, Promise<number>>();
  for (const request of requests) if (request.at <= renderedAt && !counted.has(request.url)) counted.set(request.url, request.size);
  const sizes = await Promise.all([...counted].map(async ([url, size]) => [url.split('/').pop() ?? url, await size] as const));
  if (process.env.BENCH_VERBOSE) for (const [name, size] of sizes) console.log(`    ${(size / 1024).toFixed(1).padStart(6)} KiB ${name}`);
  await context.close();
  return { roundTrip: renderedAt - submitted, gzipKiB: sizes.reduce((sum, [, size]) => sum + size, 0) / 1024 };
}

try {
  const shell = [];
  for (let run = 0; run < 6; run++) shell.push(await signInOnce(browser, '/settings', 'nav[aria-label="Main navigation"]'));
  const list = [];
  for (let run = 0; run < 3; run++) list.push(await signInOnce(browser, '/list', '[role=grid] [role=row] + [role=row], [role=grid] tbody [role=row]'));
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
