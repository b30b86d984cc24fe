#!/usr/bin/env node
// The `confab-server` command. It is committed (unlike dist/), so installing the workspace can
// link it before anything is built; it runs the built server in dist/.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error(
    `confab-server: ${fileURLToPath(entry)} is missing. Build the server first:\n  pnpm --filter @confab/client --filter @confab/server build`,
  );
  process.exit(1);
}
await import(entry.href);
