// @ts-check
/**
 * Mutation testing (docs/testing.md): StrykerJS 9 with its vitest runner changes the code one small
 * edit at a time and runs the tests that cover the edit; a mutant no test notices "survives".
 * `npm run test:mutation` runs this full configuration and prints the score per folder
 * (scripts/mutation-score.mjs); `npm run test:mutation:ci` runs stryker.ci.config.mjs, a fixed
 * fast subset with a breaking threshold.
 *
 * Equivalent mutants (a change no behaviour can observe) are marked where they live with
 * `// Stryker disable next-line <mutator>: <why>` in src/, which the report lists as "ignored" with
 * the reason. The machines' descriptions and statechartLabels, which only the diagrams read, are
 * ignored by one rule (scripts/stryker/statechart-texts-ignorer.mjs) instead of a comment on
 * each. The server files are not annotated; their known equivalent survivors are explained in
 * `equivalentServerMutants` below so that reading the report does not start from zero.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner', './scripts/stryker/statechart-texts-ignorer.mjs'],
  ignorers: ['statechart-texts'],
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: [
    'src/machines/**/*.ts',
    'src/domain/**/*.ts',
    'server/api/*.routes.ts',
    'server/api/auth.ts',
    // Types only; `createActorContext` lines are React glue the view tests cover.
    '!src/machines/machine-types.ts',
  ],
  // Data dirs other processes write to, build output and reports: never copied into the sandbox.
  ignorePatterns: ['.data', 'dist', 'dist-server', 'reports', 'test-results', 'playwright-report', 'scratch', 'bench', 'docs'],
  coverageAnalysis: 'perTest',
  // Static mutants (code run at import or in beforeAll: the machines' `createMachine({...})`
  // configuration, the routes' access rules built at registration) would each rerun the whole
  // suite, server included: hours on this machine. They are left out of the score; the path tests'
  // transition expectations and tests/server/export-claims.test.ts are what catch them (checked
  // by hand for the changes of issue 18, docs/testing.md).
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  thresholds: { high: 90, low: 80, break: null },
};

/**
 * Surviving server mutants that no request can tell apart (kept here because server/ is not
 * annotated): see docs/testing.md "Reading the mutation report".
 */
export const equivalentServerMutants = [
  {
    file: 'server/api/*.routes.ts',
    what: 'a route\'s `response: {...}` schemas emptied (ObjectLiteral `{}`)',
    why: 'the schema only serialises and checks what the handler returns, and every handler returns exactly its fields: JSON.stringify writes the same answer. The route tests parse answers with the same schemas (src/schemas)',
  },
  {
    file: 'server/api/application-actions.routes.ts',
    what: "`claimOf`'s `typeof claim === 'string'` made always true",
    why: 'every action routed there has a string claim (the actionRules table); the other mutants of claimOf are killed by the 403 that comes before the body is read',
  },
  {
    file: 'server/api/application-actions.routes.ts',
    what: '`bytesInDatabase` made false (no-cover: the retry loop of `perform` after a write that lost a race five times)',
    why: "with database storage, the document bytes then go right after the transaction through the storage's own delete instead of in it: only a crash in between tells them apart. The retry needs a change between each read and write, which no request can arrange",
  },
  {
    file: 'server/api/application-actions.routes.ts',
    what: "the log line when deleting a depersonalised document's file fails (`.catch(...)`)",
    why: 'the answer is the same either way by design (the rows are gone; the bytes are orphaned); only the log differs',
  },
  {
    file: 'server/api/monitoring.routes.ts',
    what: 'when to vacuum (`stored.id % vacuumEvery === 0` made true, false or otherwise changed), and `if (stored)` made true',
    why: 'vacuum only makes dead rows reusable: the answer and the rows kept are the same whether it runs after every envelope, every hundredth or never; an insert with `returning` always returns its row',
  },
  {
    file: 'server/api/monitoring.routes.ts',
    what: "`isEnvelope`'s `catch { return false; }` emptied",
    why: 'the function then returns undefined, which refuses the envelope exactly as false does',
  },
  {
    file: 'server/api/auth.ts',
    what: 'the remembered-verification cache: its use (line 73), its entry\'s expiry arithmetic (83) and its size bound (84)',
    why: 'the cache only spares the RSA check; without it, or with entries that expire at once, every request verifies the token again with the same answer (tests/server/access-control.test.ts checks that a remembered token still ends at its expiry); the bound limits memory only',
  },
  {
    file: 'server/api/auth.ts',
    what: "the token's Tenant claim and the caller record's tenant compared with the host's tenant (lines 96, 101)",
    why: "defence in depth: the issuer checked by jwtVerify is the tenant's own origin, so another tenant's token is refused before either comparison",
  },
  {
    file: 'server/api/auth.ts',
    what: "`jwtVerify`'s options emptied (line 76), its `catch` emptied (77), and the parse-or-expiry check (82) made false",
    why: "each is one of two locks on the same door: without the issuer check another tenant's token still fails the Tenant comparison (96), and the reverse; only this provider's access tokens carry `gid` and `Permissions`, so an ID token fails the schema; an emptied catch leaves the payload undefined, which the schema refuses; this provider's tokens always parse and carry `exp`",
  },
  {
    file: 'server/api/auth.ts',
    what: "the `?? ''` defaults of the Authorization header, the Host header and the token's scope",
    why: 'a missing header fails the Bearer pattern (or the tenant lookup) whatever the default; tokens of this provider always carry a scope',
  },
];

export default config;
