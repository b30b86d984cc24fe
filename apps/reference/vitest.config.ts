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
    // Files run beside each other and beside other projects' files: each starts a stack of its own
    // (a server on port 0 with a temp data dir, its own browser). Marked fileParallelism: false,
    // Vitest held all of them for a group of their own at the very end, on one worker.
  },
});
