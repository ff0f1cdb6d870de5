// Issue 16, Export All to CSV in Chromium on the bench database (1,000,000 applications by default,
// bench/common.ts seeds it once): from the click on 'Export All to CSV' to the browser's download
// starting (budget ≤ 1 s) and completing (≤ 6 s), and the page's JS heap growth meanwhile (≤ 10 MiB):
// the file goes to the browser's own download, never through the page.
import { stat } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { benchApplications, benchDataDir, startBenchServer } from './common.ts';
import { report, startServerProcess, stopProcess } from './support.ts';

// Seeds the bench database if needed, then hands it to the real server (built portal, real login).
const seeding = await startBenchServer();
await seeding.close();
const { child, port } = await startServerProcess({ DATA_DIR: benchDataDir });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

try {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const heapMiB = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    return (metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0) / 2 ** 20;
  };

  await page.goto(`http://localhost:${port}/list/all`);
  await page.getByLabel('Email').fill('admin@demo.test');
  await page.getByLabel('Password').fill('Demo-Passw0rd!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('grid', { name: 'Applications' }).getByRole('row').nth(2).waitFor({ timeout: 60_000 });
  const title = await page.title();
  const heapBefore = await heapMiB();

  let peakHeap = heapBefore;
  const sampler = setInterval(() => {
    void cdp
      .send('Performance.getMetrics')
      .then(({ metrics }) => {
        const used = (metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0) / 2 ** 20;
        peakHeap = Math.max(peakHeap, used);
      })
      .catch(() => undefined);
  }, 100);

  await page.getByRole('button', { name: 'More' }).click();
  const clicked = performance.now();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByRole('menuitem', { name: 'Export All to CSV' }).click(),
  ]);
  const began = performance.now() - clicked;
  const path = await download.path();
  const completed = performance.now() - clicked;
  clearInterval(sampler);
  const size = (await stat(path)).size;

  console.log(`${title}: export.csv ${(size / 2 ** 20).toFixed(1)} MiB (${benchApplications.toLocaleString('en-AU')} applications seeded)`);
  report('click → browser download begins', began, 1000, 'ms');
  report('click → download complete', completed, 6000, 'ms');
  report('page JS heap growth (peak over before)', peakHeap - heapBefore, 10, 'MiB');
  await context.close();
} finally {
  await browser.close();
  await stopProcess(child);
}
