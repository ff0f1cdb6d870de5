// @ts-check
import base from './stryker.config.mjs';

/**
 * The CI subset (`npm run test:mutation:ci`): a fixed list of the rule files whose mistakes the
 * audit of issue 18 let through (claims, list permissions, the password policy), run
 * against the unit tests only (no server start, no path tests), so it stays within a few minutes:
 * the machines' mutants are in the full run, where each costs a few seconds of path tests. `break` fails the build when the score drops below it.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...base,
  vitest: { configFile: 'vitest.mutation-ci.config.ts' },
  mutate: [
    'src/domain/permissions.ts',
    'src/domain/list-permissions.ts',
    'src/domain/password-policy.ts',
  ],
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation-ci/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation-ci/mutation.html' },
  // The subset scores 100 % with its equivalent mutants marked; a drop under 90 % fails the build.
  thresholds: { high: 95, low: 90, break: 90 },
};
