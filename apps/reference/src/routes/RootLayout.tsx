import { Suspense, useCallback, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate as useRouterNavigate } from 'react-router';
import type { ConfabClient } from '@confab/client';
import { ConfabProvider, InitializingScreen, useConfabStore, type NavigateFunction } from '@confab/chat-ui';

export interface RootLayoutProps {
  client: ConfabClient;
  /** The routes. */
  children: ReactNode;
}

/** Provides the client and the router's navigate to every screen, behind the app-start gate. */
export function RootLayout({ client, children }: RootLayoutProps) {
  const routerNavigate = useRouterNavigate();
  const navigate = useCallback<NavigateFunction>(
    (to, options) => {
      // flushSync: the new screen (or, on a page's first visit, its loading state) is on the page
      // in the same task as the URL change, so nothing (a person, an assistive technology, a
      // browser test) sees the new URL over the old screen.
      flushSync(() => void routerNavigate(to, { replace: options?.replace === true, state: options?.state }));
    },
    [routerNavigate],
  );
  return (
    <ConfabProvider client={client} navigate={navigate}>
      <AppStartGate>{children}</AppStartGate>
    </ConfabProvider>
  );
}

/** Spec §2: app start shows the initialising screen while the session is set up, and while the first page loads. */
function AppStartGate({ children }: { children: ReactNode }) {
  const initializing = useConfabStore((state) => state.initializing);
  return initializing ? <InitializingScreen /> : <Suspense fallback={<InitializingScreen />}>{children}</Suspense>;
}
