import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One worker per core: vitest's default leaves one core to its own process, which on a
    // two-core machine ran the whole suite on a single core (issue 41).
    maxWorkers: availableParallelism(),
    projects: [
      // Rules and components; several files replace modules with vi.mock, so each file gets fresh modules.
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'] } },
      // The server and machine tests share a worker's modules from file to file (issue 41): importing
      // the server (Fastify, the identity provider, PGlite) took 2–3 s per file, over half of the
      // stage's time, and the JIT stays warm. Each file still starts its own servers on its own
      // database copies, and none of them replaces a module or the clock for longer than a test.
      {
        extends: true,
        test: { name: 'machines', include: ['tests/machines/**/*.test.ts', 'tests/machines/**/*.test.tsx'], isolate: false },
      },
      // Only the server tests start servers from the seeded template (a root globalSetup ran once per project).
      {
        extends: true,
        test: { name: 'server', include: ['tests/server/**/*.test.ts'], isolate: false, globalSetup: ['tests/server/global-setup.ts'] },
      },
    ],
  },
});
