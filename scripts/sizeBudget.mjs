#!/usr/bin/env node
/**
 * The JS budget of the reference app's routes, over Vite's build manifest.
 *
 * A route needs the entry chunk, the chunk of each of its lazily loaded pages, and every chunk
 * those import statically (transitively). Dynamic imports are left out: they load on demand. The
 * routes, their pages (manifest keys of ConfabApp's page modules) and their budgets come from
 * apps/reference/routeBudgets.json.
 *
 * Usage: node scripts/sizeBudget.mjs [--app <dir>]   (default: the current directory, else
 * apps/reference). Prints a table; exits 1 when a route is over its budget (limitKb), 2 when the
 * manifest or the route table is missing or inconsistent. A route's targetKb, when set, is the
 * budget it is headed for: printed as met or not yet, never failing the build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

/** gzip at zlib's default level, as Vite reports "gzip:" sizes. */
export function gzipSize(bytes) {
  return gzipSync(bytes).length;
}

/** The key of the build's one entry (index.html); throws when there is not exactly one. */
export function entryKeyOf(manifest) {
  const keys = Object.keys(manifest).filter((key) => manifest[key].isEntry === true);
  if (keys.length !== 1) throw new Error(`expected one entry in the manifest, found ${keys.length}`);
  return keys[0];
}

/**
 * The output files (JS only) a route downloads: the entry's and each page's chunk with their
 * transitive static imports, in load order, each once.
 */
export function routeFiles(manifest, pageKeys) {
  const files = [];
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (chunk === undefined) throw new Error(`${key} is not in the manifest`);
    if (chunk.file.endsWith('.js')) files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKeyOf(manifest));
  for (const key of pageKeys) {
    if (manifest[key] === undefined) throw new Error(`${key} is not in the manifest (a page routeBudgets.json names that the build does not have)`);
    if (manifest[key].isDynamicEntry !== true) throw new Error(`${key} is not a lazily loaded chunk in the manifest`);
    visit(key);
  }
  return files;
}

/**
 * Each budgeted route with the JS files a first visit of it downloads, in load order: what the
 * budgets measure, and what a page may preload for the route.
 */
export function budgetedRouteFiles({ manifest, budgets }) {
  return budgets.routes.map(({ route, pages }) => ({ route, files: routeFiles(manifest, pages) }));
}

/** budgetedRouteFiles of the app built in `app` (its dist/.vite/manifest.json and routeBudgets.json): what the server preloads. */
export function builtRouteFiles(app) {
  const manifest = JSON.parse(readFileSync(join(app, 'dist/.vite/manifest.json'), 'utf8'));
  const budgets = JSON.parse(readFileSync(join(app, 'routeBudgets.json'), 'utf8'));
  return budgetedRouteFiles({ manifest, budgets });
}

/**
 * One row per budgeted route: its gzip size in bytes (the sum over its files, each gzipped on its
 * own as the browser downloads it) and whether it fits.
 */
export function measureRoutes({ manifest, budgets, readAsset }) {
  const sizes = new Map();
  const sizeOf = (file) => {
    if (!sizes.has(file)) sizes.set(file, gzipSize(readAsset(file)));
    return sizes.get(file);
  };
  const routeFilesOf = new Map(budgetedRouteFiles({ manifest, budgets }).map(({ route, files }) => [route, files]));
  return budgets.routes.map(({ route, limitKb, targetKb }) => {
    const files = routeFilesOf.get(route);
    const gzipBytes = files.reduce((total, file) => total + sizeOf(file), 0);
    const target = targetKb === undefined ? {} : { targetBytes: targetKb * 1000, meetsTarget: gzipBytes <= targetKb * 1000 };
    return { route, files, gzipBytes, limitBytes: limitKb * 1000, ok: gzipBytes <= limitKb * 1000, ...target };
  });
}

const kb = (bytes) => (bytes / 1000).toFixed(1);

/** The table `pnpm build` prints. kB are 1000 bytes, as Vite prints them. */
export function formatTable(rows) {
  // The target column only while some route is headed for a lower budget.
  const withTargets = rows.some((row) => row.targetBytes !== undefined);
  const header = ['route', 'JS kB gzip', 'budget kB', 'chunks', '', ...(withTargets ? ['target'] : [])];
  const targetOf = (row) => (row.targetBytes === undefined ? '' : `${kb(row.targetBytes)} ${row.meetsTarget ? 'met' : 'not yet'}`);
  const lines = rows.map((row) => [
    row.route,
    kb(row.gzipBytes),
    kb(row.limitBytes),
    String(row.files.length),
    row.ok ? 'OK' : 'OVER',
    ...(withTargets ? [targetOf(row)] : []),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const format = (cells) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd();
  return [format(header), ...lines.map(format)].join('\n');
}

function appDirectory(argv) {
  const flag = argv.indexOf('--app');
  if (flag !== -1 && argv[flag + 1] !== undefined) return resolve(argv[flag + 1]);
  if (existsSync('routeBudgets.json')) return process.cwd();
  return fileURLToPath(new URL('../apps/reference/', import.meta.url));
}

function main() {
  const app = appDirectory(process.argv.slice(2));
  const manifestPath = join(app, 'dist/.vite/manifest.json');
  if (!existsSync(manifestPath)) {
    console.error(`sizeBudget: ${manifestPath} is missing; run vite build (with build.manifest) first.`);
    process.exit(2);
  }
  let rows;
  try {
    rows = measureRoutes({
      manifest: JSON.parse(readFileSync(manifestPath, 'utf8')),
      budgets: JSON.parse(readFileSync(join(app, 'routeBudgets.json'), 'utf8')),
      readAsset: (file) => readFileSync(join(app, 'dist', file)),
    });
  } catch (error) {
    console.error(`sizeBudget: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  console.log(`\nJS per route (everything a first visit downloads to render it):\n${formatTable(rows)}\n`);
  const over = rows.filter((row) => !row.ok);
  if (over.length > 0) {
    console.error(`sizeBudget: over budget: ${over.map((row) => `${row.route} (${kb(row.gzipBytes)} kB > ${kb(row.limitBytes)} kB)`).join(', ')}`);
    process.exit(1);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
