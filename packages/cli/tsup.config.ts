import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const versionOf = (path: string) => (JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { version: string }).version;

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  banner: { js: '#!/usr/bin/env node' },
  // src/versions.ts: what `confab --version` says and the @confab/client range `confab init` writes.
  define: {
    __CONFAB_CLI_VERSION__: JSON.stringify(versionOf('./package.json')),
    __CONFAB_CLIENT_VERSION__: JSON.stringify(versionOf('../client/package.json')),
  },
});
