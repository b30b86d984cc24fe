import type { NavigateFunction } from '../provider/types';

/** Where ConfabApp is, as an app path: `/chat/abc`, whatever base path the host gave it. */
export interface AppLocation {
  pathname: string;
  search: string;
  hash: string;
  /** The `state` the navigate call carried (e.g. `{ preselectedAgent }`). */
  state: unknown;
}

/**
 * ConfabApp's history: the screens navigate with app paths (`/chat/new`), and the history decides
 * where that lands: the browser's URL under a base path, or memory only.
 */
export interface AppHistory {
  /** The current location; the same object until it changes (a useSyncExternalStore snapshot). */
  location(): AppLocation;
  subscribe(onChange: () => void): () => void;
  navigate: NavigateFunction;
  /** The `href` of a link to the app path `to`. */
  href(to: string): string;
}

/** '/team-chat/' → '/team-chat'; '/' and '' → '' (the root). */
export function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The app path of a browser pathname under `base`; null when the pathname is outside it. */
export function appPathOf(pathname: string, base: string): string | null {
  if (base === '') return pathname;
  if (pathname === base) return '/';
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : null;
}

/**
 * The browser's history under `basePath`: navigate('/chat/x') pushes `${basePath}/chat/x`, then
 * fires `popstate` (as browserNavigate does) so a host router listening for it sees the change.
 * Back and Forward work as usual. A URL outside the base path reads as the app's '/'.
 */
export function createBrowserHistory(basePath: string): AppHistory {
  const base = normalizeBasePath(basePath);
  let cachedHref: string | null = null;
  let cached: AppLocation = { pathname: '/', search: '', hash: '', state: null };
  const href = (to: string) => `${base}${to}`;
  return {
    location() {
      const current = window.location.href;
      if (current !== cachedHref) {
        cachedHref = current;
        const url = new URL(current);
        cached = { pathname: appPathOf(url.pathname, base) ?? '/', search: url.search, hash: url.hash, state: window.history.state as unknown };
      }
      return cached;
    },
    subscribe(onChange) {
      window.addEventListener('popstate', onChange);
      return () => window.removeEventListener('popstate', onChange);
    },
    navigate(to, options) {
      const state = options?.state ?? null;
      if (options?.replace === true) window.history.replaceState(state, '', href(to));
      else window.history.pushState(state, '', href(to));
      // A state-only change keeps the href: the cached location must still be read again.
      cachedHref = null;
      window.dispatchEvent(new PopStateEvent('popstate', { state }));
    },
    href,
  };
}

/**
 * A history in memory: the host's URL never changes, so the app can sit in a page that has its
 * own routing. Links point at the host page itself (there is no URL to open the app path in).
 */
export function createMemoryHistory(initialPath = '/'): AppHistory {
  const listeners = new Set<() => void>();
  let current = parse(initialPath.startsWith('/') ? initialPath : `/${initialPath}`, null);
  return {
    location: () => current,
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    navigate(to, options) {
      current = parse(to, options?.state ?? null);
      for (const listener of [...listeners]) listener();
    },
    href: () => (typeof window === 'undefined' ? '' : window.location.href),
  };
}

function parse(to: string, state: unknown): AppLocation {
  const url = new URL(to, 'http://app.invalid');
  return { pathname: url.pathname, search: url.search, hash: url.hash, state };
}
