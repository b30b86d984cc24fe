import { useCallback } from 'react';
import { Outlet, useNavigate as useRouterNavigate } from 'react-router';
import type { ConfabClient } from '@confab/client';
import { ConfabProvider, InitializingScreen, useConfabStore, type NavigateFunction } from '@confab/chat-ui';

export interface RootLayoutProps {
  client: ConfabClient;
}

/** Provides the client and the router's navigate to every screen, behind the app-start gate. */
export function RootLayout({ client }: RootLayoutProps) {
  const routerNavigate = useRouterNavigate();
  const navigate = useCallback<NavigateFunction>(
    (to, options) => {
      // flushSync: the new screen is on the page by the time the URL changes, so nothing (a
      // person, an assistive technology, a browser test) sees the new URL over the old screen.
      void routerNavigate(to, { replace: options?.replace === true, state: options?.state, flushSync: true });
    },
    [routerNavigate],
  );
  return (
    <ConfabProvider client={client} navigate={navigate}>
      <AppStartGate />
    </ConfabProvider>
  );
}

/** Spec §2: app start shows the initialising screen while the session is set up. */
function AppStartGate() {
  const initializing = useConfabStore((state) => state.initializing);
  return initializing ? <InitializingScreen /> : <Outlet />;
}
