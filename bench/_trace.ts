import { chromium } from '@playwright/test';
import { startServerProcess, stopProcess } from './support.ts';
const { child, port } = await startServerProcess({ DATA_DIR: '.data/bench-detail-browser' });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(`http://localhost:${port}/list/all`);
  await page.getByLabel('Email').fill('admin@demo.test');
  await page.getByLabel('Password').fill('Demo-Passw0rd!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  for (let run = 0; run < 4; run++) {
    await page.goto(`http://localhost:${port}/list/all`);
    const row = page.getByRole('grid', { name: 'Applications' }).getByRole('row').filter({ has: page.getByRole('rowheader') }).first();
    await row.waitFor();
    await page.evaluate(() => performance.clearResourceTimings());
    await page.evaluate(`addEventListener('pointerdown', () => (window.downAt = performance.now()), { capture: true, once: true }); addEventListener('click', () => (window.clickAt = performance.now()), { capture: true, once: true });`);
    const clickedAt = await page.evaluate(() => performance.now());
    await row.getByRole('rowheader').click();
    await page.getByRole('heading', { name: 'Activity feed' }).waitFor();
    await page.getByRole('button', { name: 'Refresh' }).waitFor();
    await page.waitForTimeout(300);
    const entries = await page.evaluate(() => performance.getEntriesByType('resource').map((e: any) => [e.name.replace(/^https?:\/\/[^/]+/, ''), Math.round(e.startTime), Math.round(e.responseEnd)]));
    const down = await page.evaluate('window.downAt'); const click = await page.evaluate('window.clickAt');
    console.log(`run ${run}: pointerdown +${Math.round(Number(down) - clickedAt)}, click event +${Math.round(Number(click) - clickedAt)}`);
    for (const [name, start, end] of entries) console.log(`   +${Number(start) - clickedAt | 0} → +${Number(end) - clickedAt | 0}  ${name}`);
  }
} finally { await browser.close(); await stopProcess(child); }
