import { defineConfig } from 'vitest/config';
import FailedSetupFailsItsTests from './scripts/stryker/failed-setup-reporter.ts';

/**
 * What the full mutation run (stryker.config.mjs) runs per mutant: the unit, machine and view-path
 * tests, and the server tests that exercise routes and claims. Left out: the fuzz suite (it walks
 * every route with generated input for minutes and asserts no 5xx, not what a route decides) and
 * the database/performance tests, which test no mutated file.
 */
export default defineConfig({
  test: {
    // MUTATION_TESTS=glob,glob narrows the run to the tests of one area (stryker.area.config.mjs).
    include: process.env.MUTATION_TESTS?.split(',') ?? [
      'tests/unit/**/*.test.ts',
      'tests/unit/**/*.test.tsx',
      'tests/machines/**/*.test.ts',
      'tests/machines/**/*.test.tsx',
      ...(process.env.MUTATION_SERVER === '0' ? [] : ['tests/server/*.test.ts']),
    ],
    exclude: ['tests/server/buffer-warmup.test.ts', 'tests/server/pglite-thread.test.ts', 'tests/server/applications-seed.test.ts', 'tests/server/change-feed.test.ts'],
    globalSetup: process.env.MUTATION_SERVER === '0' ? [] : ['tests/server/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', new FailedSetupFailsItsTests()],
  },
});
