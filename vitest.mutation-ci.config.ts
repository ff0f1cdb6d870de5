import { defineConfig } from 'vitest/config';

/** The rule tests, without the server: what the CI mutation subset runs (stryker.ci.config.mjs). */
export default defineConfig({
  test: {
    include: [
      'tests/unit/claim-rules.test.ts',
      'tests/unit/list-rules.test.ts',
      'tests/unit/password-rules.test.ts',
      'tests/unit/password-change.test.ts',
    ],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
