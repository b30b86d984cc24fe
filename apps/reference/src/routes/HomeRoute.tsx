import { AppShell, LandingPage, useConfabStore } from '@confab/chat-ui';

/** '/': the chat shell when signed in, otherwise the landing page. */
export function HomeRoute() {
  const isAuthenticated = useConfabStore((state) => state.isAuthenticated);
  return isAuthenticated ? <AppShell /> : <LandingPage />;
}
