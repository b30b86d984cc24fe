import { Suspense, type ReactNode } from 'react';
import type { ConfabClient } from '@confab/client';
import { ConfabProvider, InitializingScreen, useConfabStore } from '@confab/chat-ui';

export interface RootLayoutProps {
  client: ConfabClient;
  /** The routes. */
  children: ReactNode;
}

/**
 * Provides the client to every screen, behind the app-start gate. Navigation is the provider's
 * default (browserNavigate: the History API and a popstate), which the router listens to. The
 * theme follows the system's light or dark setting.
 */
export function RootLayout({ client, children }: RootLayoutProps) {
  return (
    <ConfabProvider client={client} theme="auto">
      <AppStartGate>{children}</AppStartGate>
    </ConfabProvider>
  );
}

/** docs/PRODUCT.md §2: app start shows the initialising screen while the session is set up, and while the first page loads. */
function AppStartGate({ children }: { children: ReactNode }) {
  const initializing = useConfabStore((state) => state.initializing);
  return initializing ? <InitializingScreen /> : <Suspense fallback={<InitializingScreen />}>{children}</Suspense>;
}
