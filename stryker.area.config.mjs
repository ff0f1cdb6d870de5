// @ts-check
import base from './stryker.config.mjs';

/** One folder of the full run at a time (`STRYKER_AREA=domain|machines|server`), each with its own report. */
const area = process.env.STRYKER_AREA ?? 'domain';
const mutate = {
  domain: ['src/domain/**/*.ts'],
  machines: ['src/machines/**/*.ts', '!src/machines/machine-types.ts'],
  // One machine with its own path tests (MUTATION_TESTS), a run that finishes in minutes.
  'change-password': ['src/machines/change-password.machine.ts'],
  session: ['src/machines/session.machine.ts'],
  server: ['server/api/*.routes.ts', 'server/api/auth.ts'],
}[area];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  mutate,
  jsonReporter: { fileName: `reports/mutation-${area}/mutation.json` },
  htmlReporter: { fileName: `reports/mutation-${area}/mutation.html` },
};
