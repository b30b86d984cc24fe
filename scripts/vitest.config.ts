import { defineProject } from 'vitest/config';

// Checks of the packages as they are published: pack, lint, install. `pnpm test` builds first.
export default defineProject({
  test: {
    name: 'packages',
    environment: 'node',
    include: ['*.test.ts'],
    // pnpm pack (the server's prepack compresses the bundled web app), publint and attw per package.
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
