import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './scripts/longestFirst.mjs';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts', 'scripts/vitest.config.ts', '.storybook/vitest.config.ts'],
    // Vitest's default is one worker per core but one: a single worker on a 2-core machine, which
    // runs every file in turn. Most suites spend their time waiting (on servers, browsers,
    // databases and child processes), so two workers overlap those waits.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './scripts/slowestTestFiles.mjs'],
    sequence: { sequencer: LongestFirst },
  },
});
