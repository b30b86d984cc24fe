import { lazy, Suspense } from 'react';
import { InitializingScreen, LandingPage, useConfabStore } from '@confab/chat-ui';

// The signed-in shell is loaded only for people who have a session: the landing page's budget
// (routeModules.json) does not carry the sidebar, the agent search and the chat list.
const SignedInHome = lazy(() => import('../layouts/SignedInHome'));

/** '/': the chat shell when signed in, otherwise the landing page. */
export default function Page() {
  const isAuthenticated = useConfabStore((state) => state.isAuthenticated);
  if (!isAuthenticated) return <LandingPage />;
  return (
    <Suspense fallback={<InitializingScreen />}>
      <SignedInHome />
    </Suspense>
  );
}
