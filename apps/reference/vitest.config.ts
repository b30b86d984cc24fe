import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.ts';

// Browser end-to-end tests: real confab-server + the built app + Debian's Chromium.
export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
