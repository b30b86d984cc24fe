import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the reference app's build lists the JS files of each of its first-visit routes
 * (scripts/routePreloads.mjs): `{ "routes": [{ "route": "/chat/:id", "files": ["/assets/….js"] }] }`.
 */
export const routePreloadsFile = '.vite/routePreloads.json';

/** index.html as sent for one path: the page, and an ETag for revalidation. */
export interface IndexPage {
  html: string;
  etag: string;
}

interface RoutePreloads {
  pattern: RegExp;
  files: string[];
}

/**
 * index.html for each route, with a `<link rel="modulepreload">` for every JS file the route
 * needs that the page does not name already, so the browser fetches a route's chunks in parallel
 * with the entry instead of one import after another. Paths of no listed route get index.html as
 * built (the entry's own preloads). Returns null when the build lists no routes (an app built
 * without the list, or a web dir that is not the reference app): index.html is then sent as a file.
 */
export function loadIndexPages(webDir: string): ((pathname: string) => IndexPage) | null {
  const listPath = join(webDir, routePreloadsFile);
  if (!existsSync(listPath)) return null;
  const routes = parseRoutePreloads(readFileSync(listPath, 'utf8'));
  if (routes === null) return null;
  const indexHtml = readFileSync(join(webDir, 'index.html'), 'utf8');
  const plain = page(indexHtml);
  // A handful of routes: every page is built once, at start-up.
  const pages = routes.map(({ pattern, files }) => ({ pattern, page: page(withModulePreloads(indexHtml, files)) }));
  return (pathname) => pages.find(({ pattern }) => pattern.test(pathname))?.page ?? plain;
}

/** The list's routes, or null when the file is not such a list. */
function parseRoutePreloads(text: string): RoutePreloads[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const routes = (parsed as { routes?: unknown } | null)?.routes;
  if (!Array.isArray(routes)) return null;
  const valid = routes.filter(
    (entry): entry is { route: string; files: string[] } =>
      typeof entry?.route === 'string' &&
      entry.route.startsWith('/') &&
      Array.isArray(entry.files) &&
      entry.files.every((file: unknown) => typeof file === 'string' && /^\/[\w./-]+\.js$/.test(file)),
  );
  return valid.map(({ route, files }) => ({ pattern: routePattern(route), files }));
}

/** '/chat/:id' matches /chat/abc and /chat/abc/ (a `:name` is one non-empty segment); '/' only the root. */
export function routePattern(route: string): RegExp {
  const segments = route.split('/').filter((segment) => segment !== '');
  const body = segments.map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment))).join('/');
  return new RegExp(body === '' ? '^/$' : `^/${body}/?$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The links go last in <head>, after the entry's, in the route's load order; files the page names already are skipped. */
function withModulePreloads(indexHtml: string, files: string[]): string {
  const links = files
    .filter((file) => !indexHtml.includes(`"${file}"`))
    .map((file) => `    <link rel="modulepreload" crossorigin href="${file}">\n`)
    .join('');
  const headEnd = indexHtml.indexOf('</head>');
  if (links === '' || headEnd === -1) return indexHtml;
  const at = indexHtml.lastIndexOf('\n', headEnd) + 1;
  return `${indexHtml.slice(0, at)}${links}${indexHtml.slice(at)}`;
}

function page(html: string): IndexPage {
  return { html, etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"` };
}
