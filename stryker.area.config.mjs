// @ts-check
import base from './stryker.config.mjs';

/**
 * `machine:<name>`: src/machines/<name>.machine.ts alone, a run of minutes with that machine's own
 * tests (MUTATION_TESTS); scripts/mutation-machines.sh runs every machine this way.
 */
function oneMachine(name) {
  const match = /^machine:([a-z-]+)$/.exec(name);
  return match ? [`src/machines/${match[1]}.machine.ts`] : undefined;
}

/** One folder of the full run at a time (`STRYKER_AREA=domain|machines|server`), each with its own report. */
const area = process.env.STRYKER_AREA ?? 'domain';
const mutate = {
  domain: ['src/domain/**/*.ts'],
  machines: ['src/machines/**/*.ts', '!src/machines/machine-types.ts'],
  // The list machine's mutants each replay its 1,200 path tests (about 20 s a survivor here): about
  // 100 minutes on their own, so the machines area can also run as these two parts.
  'machines-list': ['src/machines/application-list.machine.ts'],
  'machines-rest': ['src/machines/**/*.ts', '!src/machines/machine-types.ts', '!src/machines/application-list.machine.ts'],
  // One machine with its own path tests (MUTATION_TESTS), a run that finishes in minutes.
  'change-password': ['src/machines/change-password.machine.ts'],
  session: ['src/machines/session.machine.ts'],
  server: ['server/api/*.routes.ts', 'server/api/auth.ts'],
  // The claim module alone, against the tests of the bearer check (MUTATION_TESTS): minutes.
  'server-auth': ['server/api/auth.ts'],
  // The server area in three parts of about an hour or less each, so that one finished part's
  // report counts even when there is no time for the rest (scripts/mutation-score.mjs adds them up).
  'server-actions': ['server/api/application-actions.routes.ts', 'server/api/application-messages.routes.ts', 'server/api/auth.ts'],
  'server-records': [
    'server/api/applications.routes.ts',
    'server/api/documents.routes.ts',
    'server/api/application-detail.routes.ts',
    'server/api/configuration.routes.ts',
  ],
  'server-rest': [
    'server/api/*.routes.ts',
    '!server/api/{application-actions,application-messages,applications,documents,application-detail,configuration}.routes.ts',
  ],
}[area] ?? oneMachine(area);
if (!mutate) throw new Error(`Unknown STRYKER_AREA ${area}`);
const folder = area.replace(':', '-');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  mutate,
  // One machine's own tests run in about two seconds, so each of its mutants runs them all ('all'
  // coverage gives Stryker no per-test filter), static ones (the `createMachine({...})` configuration,
  // evaluated at import) included.
  ...(area.startsWith('machine:') ? { coverageAnalysis: 'all', ignoreStatic: false } : {}),
  // The list machine's tests take 20 s, so only its static and hybrid mutants (run at import, and
  // maybe in tests too) run them all; those covered only inside tests run the tests that cover them.
  // Left out, a static mutant that breaks the machine's configuration would not count; run only
  // with the tests that cover it, it was switched on after the import (stryker-js #6144).
  ...(area === 'machines-list' ? { ignoreStatic: false } : {}),
  jsonReporter: { fileName: `reports/mutation-${folder}/mutation.json` },
  htmlReporter: { fileName: `reports/mutation-${folder}/mutation.html` },
};
