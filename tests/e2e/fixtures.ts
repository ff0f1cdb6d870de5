import { test as base } from '@playwright/test';
import { serverPorts } from './ports.ts';

export { expect } from '@playwright/test';

/**
 * Playwright's test, pointed at this worker's own servers (playwright.config.ts): `baseURL` is the
 * main server, `shortLivedBaseUrl` the one whose tokens expire within seconds.
 */
// Playwright reads a fixture's dependencies from its first parameter's pattern: these have none.
/* eslint-disable no-empty-pattern */
export const test = base.extend<{ shortLivedBaseUrl: string }>({
  baseURL: async ({}, use, testInfo) => use(`http://localhost:${serverPorts(testInfo.parallelIndex).main}`),
  shortLivedBaseUrl: async ({}, use, testInfo) => use(`http://localhost:${serverPorts(testInfo.parallelIndex).shortLived}`),
});
/* eslint-enable no-empty-pattern */
