import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx', 'tests/machines/**/*.test.ts', 'tests/machines/**/*.test.tsx', 'tests/server/**/*.test.ts'],
    globalSetup: ['tests/server/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One worker per core: vitest's default leaves one core to its own process, which on a
    // two-core machine ran the whole suite on a single core (issue 41).
    maxWorkers: availableParallelism(),
  },
});
