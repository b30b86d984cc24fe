import { readFileSync } from 'node:fs';
import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.ts';

const versionOf = (path: string) => (JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { version: string }).version;

export default defineProject({
  resolve: { alias: workspaceAliases },
  // As tsup defines them for the build (src/versions.ts).
  define: {
    __CONFAB_CLI_VERSION__: JSON.stringify(versionOf('./package.json')),
    __CONFAB_CLIENT_VERSION__: JSON.stringify(versionOf('../client/package.json')),
  },
  test: {
    name: 'cli',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each case spawns the built CLI, on two Node versions, against a server in this process.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
