// Issue 30 in Chromium, on the demo tenant through the real login page and the built portal (run
// `npx vite build` first): charts visible ≤ 800 ms after navigation. From the click on Reports in
// the side navigation (on the list, where a person starts) until all five charts have drawn their
// SVG. Each run is a fresh browser context: nothing of the route or apexcharts is cached.
import { chromium, type Browser } from '@playwright/test';
import { percentile, report, startServerProcess, stopProcess } from './support.ts';

const runs = Number(process.env.BENCH_REPORTS_RUNS ?? 7);
const charts = 5;

const { child, port } = await startServerProcess({ DATA_DIR: '.data/bench-reports-browser' });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

/** One first visit of Reports in a fresh context; the ms from the click to the fifth chart drawn. */
async function visitOnce(browser: Browser): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`http://localhost:${port}/list/all`);
    await page.getByLabel('Email').fill('admin@demo.test');
    await page.getByLabel('Password').fill('Demo-Passw0rd!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('grid').getByRole('row').nth(1).waitFor();
    // A string, not a function (tsx would wrap a named inner function with a helper the page lacks).
    await page.evaluate(`(() => {
      addEventListener('pointerdown', () => (window.pressedAt = performance.now()), { capture: true, once: true });
      const observer = new MutationObserver(() => {
        const drawn = [...document.querySelectorAll('svg.apexcharts-svg')].filter((svg) => svg.checkVisibility());
        if (window.pressedAt !== undefined && drawn.length >= ${charts}) {
          window.chartsAt = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true, attributes: true });
    })()`);
    await page.getByRole('link', { name: 'Reports', exact: true }).click();
    const chartsAt = Number(await (await page.waitForFunction(() => Reflect.get(window, 'chartsAt'), undefined, { timeout: 30_000 })).jsonValue());
    return chartsAt - Number(await page.evaluate('window.pressedAt'));
  } finally {
    await context.close();
  }
}

try {
  const results: number[] = [];
  for (let run = 0; run < runs; run++) results.push(await visitOnce(browser));
  console.log(`Reports clicked → ${charts} charts drawn (ms): ${results.map((ms) => ms.toFixed(0)).join(', ')}`);
  report('charts visible after navigation (p95)', percentile(results, 95), 800, 'ms');
} finally {
  await browser.close();
  await stopProcess(child);
}
