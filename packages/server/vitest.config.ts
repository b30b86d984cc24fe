import { configDefaults, defineProject } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: 'server',
    environment: 'node',
    // Real servers, argon2 and two databases: generous under a loaded 2-core CI machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Fault-matrix rows that take minutes run with `pnpm test:faults` (vitest.faults.config.ts).
    exclude: [...configDefaults.exclude, 'test/faults/**/*.long.test.ts'],
    // Servers started by tests never fight over the inbound SMTP port; inboundMail.test.ts asks for port 0.
    env: { CONFAB_INBOUND_SMTP: 'off' },
  },
});
