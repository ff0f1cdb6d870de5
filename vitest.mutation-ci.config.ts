import { defineConfig } from 'vitest/config';

/** The unit tests, without the server: what the CI mutation subset runs (stryker.ci.config.mjs). */
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
