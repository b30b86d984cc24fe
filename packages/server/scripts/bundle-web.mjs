#!/usr/bin/env node
// Copies the built reference app (apps/reference/dist) into this package's web/, which the
// published confab-server serves at / by default, and writes brotli (.br) and gzip (.gz) copies of
// its compressible files, which the server sends to browsers that accept them. Runs on `pnpm pack`
// (prepack) and in `pnpm start`. Usage: node scripts/bundle-web.mjs [source-dir]
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const source = resolve(process.argv[2] ?? join(packageDir, '../../apps/reference/dist'));
const target = join(packageDir, 'web');
/** Text formats worth compressing; source maps are left to on-the-fly compression (devtools only). */
const compressible = /\.(?:html|js|mjs|css|svg|json|webmanifest|txt|xml|wasm)$/;
const minimumBytes = 256;

if (process.env['npm_lifecycle_event'] === 'prepack' && !existsSync(join(packageDir, 'dist/bin.js'))) {
  console.error('bundle-web: dist/bin.js is missing. Build the server first:\n  pnpm --filter @confab/client --filter @confab/server build');
  process.exit(1);
}
if (!existsSync(join(source, 'index.html'))) {
  console.error(`bundle-web: ${source}/index.html is missing. Build the reference app first:\n  pnpm --filter @confab/reference build`);
  process.exit(1);
}

/**
 * Build metadata such as .vite/manifest.json is not part of the site; the one exception is the
 * list of each route's JS (.vite/routePreloads.json), which the server reads to preload a route's
 * chunks. It stays out of the site's URLs: the server serves no dot-directory.
 */
function isShipped(relativePath) {
  const normalized = relativePath.split(/[\\/]/).join('/');
  return normalized === '.vite' || normalized === '.vite/routePreloads.json' || !normalized.split('/').some((part) => part.startsWith('.'));
}

function* files(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

// Packing the server from two processes at once (two test suites) must not let one rewrite web/
// while the other's tarball reads it: one writer at a time (a lock directory), and no writing at
// all when web/ already holds this build (a stamp of the source's file names, sizes and times).
const lock = join(packageDir, '.web.lock');
const stampFile = join(packageDir, '.web-stamp');
const siteFiles = (directory) => [...files(directory)].filter((path) => isShipped(relative(directory, path)));
const stamp = createHash('sha256')
  .update(siteFiles(source).sort().map((path) => `${relative(source, path)}:${statSync(path).size}:${statSync(path).mtimeMs}`).join('\n'))
  .digest('hex');

function acquireLock() {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if (error?.code !== 'EEXIST') throw error;
      // A lock older than two minutes was left by a process that died.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`bundle-web: ${lock} is held by another process for too long`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

acquireLock();
try {
  if (existsSync(join(target, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    console.log(`bundle-web: ${relative(process.cwd(), target)} already holds this build`);
  } else {
    bundle();
    writeFileSync(stampFile, stamp);
  }
} finally {
  rmSync(lock, { recursive: true, force: true });
}

function bundle() {
  rmSync(target, { recursive: true, force: true });
  cpSync(source, target, { recursive: true, filter: (path) => isShipped(relative(source, path)) });
  let written = 0;
  for (const path of files(target)) {
    if (!compressible.test(path) || statSync(path).size < minimumBytes || relative(target, path).startsWith('.')) continue;
    const bytes = readFileSync(path);
    const brotli = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gzip = gzipSync(bytes, { level: 9 });
    // A copy that saves nothing is left out; the server then sends the file itself.
    if (brotli.length < bytes.length) writeFileSync(`${path}.br`, brotli);
    if (gzip.length < bytes.length) writeFileSync(`${path}.gz`, gzip);
    written += 1;
  }
  console.log(`bundle-web: ${relative(process.cwd(), source) || '.'} → ${relative(process.cwd(), target)} (${written} files precompressed)`);
}
