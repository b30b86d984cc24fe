import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.ts';

/**
 * `pnpm test:faults`: every row of the fault matrix (docs/OPERATIONS.md), the long ones
 * (`*.long.test.ts`, minutes each, left out of `pnpm test`) included. One file at a time: each
 * starts servers, kills them and loads the machine. Bounded: a row that hangs fails at
 * `testTimeout`, and its clean-up (child processes, private clusters) still runs.
 */
export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: 'server-faults',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'node',
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
    fileParallelism: false,
    env: { CONFAB_INBOUND_SMTP: 'off' },
  },
});
