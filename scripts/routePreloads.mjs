/**
 * A Vite plugin for the reference app's build: writes dist/.vite/routePreloads.json, the JS files
 * each budgeted route needs (scripts/sizeBudget.mjs, from the build manifest), for the server to
 * send as `<link rel="modulepreload">` in the index.html of that route. Without them the browser
 * finds a route's chunks one import at a time: the page's chunk only once the entry has run, its
 * imports only once it has arrived.
 *
 * The file: `{ "routes": [{ "route": "/chat/:id", "files": ["/assets/index-….js", …] }] }`, paths
 * from the site's root, routes as docs/PRODUCT.md §2 writes them (`:name` is one path segment).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { builtRouteFiles } from './sizeBudget.mjs';

/** Where the server looks for the file, relative to the built app (its web dir). */
export const routePreloadsPath = '.vite/routePreloads.json';

export function routePreloads() {
  let appDirectory = '';
  let outDir = '';
  return {
    name: 'confab-route-preloads',
    apply: 'build',
    configResolved(config) {
      appDirectory = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    // After the bundle and its manifest are on disk.
    closeBundle() {
      const routes = builtRouteFiles(appDirectory).map(({ route, files }) => ({ route, files: files.map((file) => `/${file}`) }));
      mkdirSync(join(outDir, '.vite'), { recursive: true });
      writeFileSync(join(outDir, routePreloadsPath), `${JSON.stringify({ routes }, null, 2)}\n`);
    },
  };
}
