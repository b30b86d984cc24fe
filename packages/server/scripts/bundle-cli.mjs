#!/usr/bin/env node
// Copies the built CLI (packages/cli: package.json, README.md, dist/index.js) into this package's
// bundled/cli, from which a confab-server installed from its tarball serves the CLI to
// `npm install -g <server>/api/packages/confab-cli.tgz` (src/packages/servedPackages.ts). In the
// workspace the server reads packages/cli itself; this runs on `pnpm pack` (prepack).
// Each file is written whole and renamed into place, and left alone when it already matches, so
// two packs at once never leave a half-written file.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const source = join(packageDir, '../cli');
const target = join(packageDir, 'bundled/cli');
const files = ['package.json', 'README.md', 'dist/index.js'];

if (!existsSync(join(source, 'dist/index.js'))) {
  console.error('bundle-cli: packages/cli/dist/index.js is missing. Build the CLI first:\n  pnpm --filter @confab/cli build');
  process.exit(1);
}

/**
 * The CLI's manifest as it is served, less what a nested package.json must not have: its
 * `exports` (only `./package.json`; Node ignores exports below a package root, and publint refuses
 * them in the server's tarball) and what an install never reads (scripts, devDependencies).
 */
function bundledManifest() {
  const { exports: _exports, scripts: _scripts, devDependencies: _devDependencies, ...manifest } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
}

let copied = 0;
for (const file of files) {
  const bytes = file === 'package.json' ? bundledManifest() : readFileSync(join(source, file));
  const destination = join(target, file);
  if (existsSync(destination) && readFileSync(destination).equals(bytes)) continue;
  mkdirSync(dirname(destination), { recursive: true });
  const temporary = `${destination}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes, { mode: file.startsWith('dist/') ? 0o755 : 0o644 });
  renameSync(temporary, destination);
  copied += 1;
}
console.log(`bundle-cli: packages/cli → bundled/cli (${copied} of ${files.length} files updated)`);
