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
  // Self-contained: @confab/client, commander and ws are bundled in, so the tarball a Confab server
  // serves (`npm i -g <server>/api/packages/confab-cli.tgz`) installs with no registry at all.
  // ws's optional native speed-ups stay out (it falls back without them).
  noExternal: [/.*/],
  external: ['bufferutil', 'utf-8-validate'],
  // The bundled CommonJS (ws, commander) calls require() for Node's own modules: give the ES
  // module a real one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __confabCreateRequire } from 'node:module'; const require = __confabCreateRequire(import.meta.url);",
  },
  // src/versions.ts: what `confab --version` says and the @confab/client version `confab init` writes.
  define: {
    __CONFAB_CLI_VERSION__: JSON.stringify(versionOf('./package.json')),
    __CONFAB_CLIENT_VERSION__: JSON.stringify(versionOf('../client/package.json')),
  },
});
