import { useMemo, useSyncExternalStore } from 'react';
import type { NavigateFunction } from '../provider/types';

/**
 * The navigate ConfabProvider uses when the host passes none: the History API, then a `popstate`
 * event so anything listening for URL changes (useBrowserLocation, most routers) re-renders.
 * Navigation state (`{ state }`) becomes `history.state`.
 *
 * @example <ConfabProvider client={client} navigate={browserNavigate}>…</ConfabProvider>
 */
export const browserNavigate: NavigateFunction = (to, options) => {
  const state = options?.state ?? null;
  if (options?.replace === true) window.history.replaceState(state, '', to);
  else window.history.pushState(state, '', to);
  window.dispatchEvent(new PopStateEvent('popstate', { state }));
};

/** Where the browser is: what a host without a router needs to pick a screen. */
export interface BrowserLocation {
  pathname: string;
  search: string;
  hash: string;
  /** `history.state`: the `state` a navigate call carried (e.g. `{ preselectedAgent }`). */
  state: unknown;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  return () => window.removeEventListener('popstate', onChange);
}

const snapshot = () => window.location.href;
const serverSnapshot = () => '';

/**
 * The current browser location, re-rendering on every browserNavigate, back and forward: a
 * router-free host can switch screens on `pathname`.
 *
 * @example
 * const { pathname } = useBrowserLocation();
 * return pathname.startsWith('/chat/') ? <ChatPage chatId={pathname.slice(6)} /> : <AppShell />;
 */
export function useBrowserLocation(): BrowserLocation {
  const href = useSyncExternalStore(subscribe, snapshot, serverSnapshot);
  return useMemo(() => {
    if (href === '') return { pathname: '/', search: '', hash: '', state: null };
    const url = new URL(href);
    return { pathname: url.pathname, search: url.search, hash: url.hash, state: window.history.state as unknown };
  }, [href]);
}
