import { defineProject } from 'vitest/config';

// Every story of the static Storybook, in Debian's Chromium: it renders, its play function passes,
// and axe finds no serious or critical violation. Runs on node; the browser is playwright-core's.
export default defineProject({
  test: {
    name: 'storybook',
    environment: 'node',
    include: ['**/*.test.ts'],
    testTimeout: 60_000,
    // Building the static Storybook (when missing or stale) happens in beforeAll.
    hookTimeout: 300_000,
    // One file: no fileParallelism: false here, which would also hold it back until every other
    // file is done and then run it alone (Vitest's group of sequential files comes last).
    // Stories run concurrently, one per page of the shared browser (STORYBOOK_PAGES, default 2).
    maxConcurrency: Number(process.env.STORYBOOK_PAGES ?? 2),
  },
});
