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

/** `route:<name>`: server/api/<name>.routes.ts alone, against the server tests of those routes (MUTATION_TESTS). */
function oneRouteModule(name) {
  const match = /^route:([a-z-]+)$/.exec(name);
  return match ? [`server/api/${match[1]}.routes.ts`] : undefined;
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
}[area] ?? oneMachine(area) ?? oneRouteModule(area);
if (!mutate) throw new Error(`Unknown STRYKER_AREA ${area}`);
const folder = area.replace(':', '-');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  mutate,
  // One machine's own tests run in about two seconds, so each of its mutants runs them all ('all'
  // coverage gives Stryker no per-test filter), static ones (the `createMachine({...})` configuration,
  // evaluated at import) included.
  ...(area.startsWith('machine:') ? { coverageAnalysis: 'all' } : {}),
  // A machine's configuration is evaluated at import: the machine areas run its static mutants too,
  // each against all of the area's tests, switched on before the import (docs/testing.md). Left out
  // as static but also covered inside a test, one ran only those tests, switched on after the import
  // (stryker-js #6144), and was never in effect. Mutants covered only inside tests still run just
  // the tests that cover them (the list machine's 1,200 path tests take 20 s).
  // A route module's registration (its paths, schemas and the claims each route requires) is static
  // the same way: it runs when a test file's beforeAll builds the server, so `route:<name>` runs it
  // against all of the module's test files instead of leaving it out.
  ...(area.startsWith('machine') || area.startsWith('route:') ? { ignoreStatic: false } : {}),
  jsonReporter: { fileName: `reports/mutation-${folder}/mutation.json` },
  htmlReporter: { fileName: `reports/mutation-${folder}/mutation.html` },
};
