import { useEffect, useMemo, useState } from 'react';
import { AppLinksContext, type AppLinks } from '../provider/AppLinksContext';
import type { ConfabUiClient } from '../provider/clientInterface';
import type { ConfabComponents } from '../provider/ComponentsContext';
import { ConfabProvider } from '../provider/ConfabProvider';
import type { ConfabTheme } from '../provider/ConfabRoot';
import { createBrowserHistory, createMemoryHistory } from './history';
import { AppStartGate } from './layouts/AppStartGate';
import { BrowserNotifications } from './BrowserNotifications';
import { prefetchRoute, routes } from './routeTable';
import { Navigate, Router } from './router';

/**
 * Where ConfabApp keeps its path. Browser: the page's URL under `basePath` (default '/'), so links
 * can be shared and Back works; the host serves its page for every URL under that path. Memory:
 * the host's URL never changes (a widget in a page with its own routing); `initialPath` is the
 * first screen (default '/').
 */
export type ConfabAppRouting = { type?: 'browser' | undefined; basePath?: string | undefined } | { type: 'memory'; initialPath?: string | undefined } | 'memory';

export interface ConfabAppProps {
  /** A `ConfabClient` (call its `initialize()` once, at start), or your own `ConfabUiClient`. */
  client: ConfabUiClient;
  /** Default `{ basePath: '/' }`: the browser's URL. */
  routing?: ConfabAppRouting | undefined;
  /** 'light' (default), 'dark', or 'auto' to follow the visitor's `prefers-color-scheme`. */
  theme?: ConfabTheme | undefined;
  /**
   * Let the screens set document.title (a chat's name, its '(n) New messages!' while the tab is
   * hidden); the title from before comes back when they go. Default false: the title is the host's.
   */
  documentTitle?: boolean | undefined;
  /** Extra classes on the root element (which fills its container: give that container a height). */
  className?: string | undefined;
  /** Replacements for the overridable parts (see `ConfabComponents`). */
  components?: Partial<ConfabComponents> | undefined;
}

/**
 * The whole product in one component: every screen of docs/PRODUCT.md §2 (landing, sign-in,
 * invitations, chats, drops, profile, agents) with its own routing, filling its container. Each
 * page's code loads the first time it is shown (or its link is pointed at); the signed-in shell
 * stays while it does.
 *
 * @example <ConfabApp client={client} routing={{ basePath: '/team-chat' }} />
 */
export function ConfabApp({ client, routing, theme, documentTitle = false, className, components }: ConfabAppProps) {
  const mode = routing === 'memory' || routing?.type === 'memory' ? 'memory' : 'browser';
  const basePath = typeof routing === 'object' && routing.type !== 'memory' ? (routing.basePath ?? '/') : '/';
  const initialPath = typeof routing === 'object' && routing.type === 'memory' ? (routing.initialPath ?? '/') : '/';
  // One history per mode and path: a new object every render would resubscribe the router.
  const { history, firstPage } = useMemo(() => {
    const created = mode === 'memory' ? createMemoryHistory(initialPath) : createBrowserHistory(basePath);
    // The first page's code starts loading now, while the session is set up.
    return { history: created, firstPage: prefetchRoute(created.location().pathname) };
  }, [mode, basePath, initialPath]);
  const firstPageLoaded = useSettled(firstPage);
  const links = useMemo<AppLinks>(() => ({ href: history.href, prefetch: prefetchRoute }), [history]);
  return (
    <ConfabProvider
      client={client}
      navigate={history.navigate}
      theme={theme}
      documentTitle={documentTitle}
      className={className ? `cf-app ${className}` : 'cf-app'}
      components={components}
    >
      <AppLinksContext.Provider value={links}>
        <BrowserNotifications />
        <AppStartGate firstPageLoaded={firstPageLoaded}>
          <Router history={history} routes={routes} fallback={<Navigate to="/" replace />} />
        </AppStartGate>
      </AppLinksContext.Provider>
    </ConfabProvider>
  );
}

/**
 * True once `promise` has settled (it never rejects). A page that suspends on its first render
 * waits out React's Suspense fallback throttle (about 300 ms) even when its code arrives sooner,
 * so the start screen stays until the first page's code is here, and the page renders at once.
 */
function useSettled(promise: Promise<void>): boolean {
  const [settled, setSettled] = useState<Promise<void> | null>(null);
  useEffect(() => {
    let current = true;
    void promise.then(() => {
      if (current) setSettled(promise);
    });
    return () => {
      current = false;
    };
  }, [promise]);
  return settled === promise;
}
