import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Each committed diagram opened as an analyst opens it: the SVG file itself in Chromium, in a
 * 1280 px wide window. Every label must be inside the window (a diagram wider than its window
 * scales down to it rather than running off the right edge).
 */
const dir = path.resolve(import.meta.dirname, '../../docs/statecharts');
const svgs = readdirSync(dir).filter((file) => file.endsWith('.svg'));
const windowWidth = 1280;

let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
});

afterAll(async () => {
  await browser?.close();
});

describe(`diagrams in Chromium at ${windowWidth} px`, () => {
  it.each(svgs)(
    '%s keeps every label inside the window',
    async (file) => {
      const page = await browser.newPage({ viewport: { width: windowWidth, height: 900 } });
      try {
        await page.goto(pathToFileURL(path.join(dir, file)).href);
        const measured = await page.evaluate(() => {
          const boxes = [...document.querySelectorAll('text')].map((text) => text.getBoundingClientRect());
          return {
            window: window.innerWidth,
            drawing: document.documentElement.getBoundingClientRect().width,
            labels: boxes.length,
            left: Math.min(...boxes.map((box) => box.left)),
            right: Math.max(...boxes.map((box) => box.right)),
          };
        });
        expect(measured.labels).toBeGreaterThan(0);
        expect(measured.drawing).toBeLessThanOrEqual(measured.window);
        expect(measured.left).toBeGreaterThanOrEqual(0);
        expect(measured.right).toBeLessThanOrEqual(measured.window);
      } finally {
        await page.close();
      }
    },
    30_000,
  );
});
