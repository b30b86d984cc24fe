import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts', 'scripts/vitest.config.ts', '.storybook/vitest.config.ts'],
    reporters: ['default', './scripts/slowestTestFiles.mjs'],
  },
});
