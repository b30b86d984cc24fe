import type { ReactNode } from 'react';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { LazyBoundary } from '../../internal/lazyPart';
import { useConfabStore } from '../../provider/hooks';
import { InitializingScreen } from '../../screens/InitializingScreen/InitializingScreen';

/**
 * docs/PRODUCT.md §2: app start shows the initialising screen while the session is set up, and
 * while the first page (or the signed-in shell) loads. A page whose code could not be downloaded
 * says so, with a retry.
 */
export function AppStartGate({ firstPageLoaded = true, children }: { firstPageLoaded?: boolean; children: ReactNode }) {
  const initializing = useConfabStore((state) => state.initializing);
  // Not a Suspense fallback: showing this while the first page's code arrives costs no throttle.
  if (initializing || !firstPageLoaded) return <InitializingScreen />;
  return (
    <LazyBoundary
      fallback={<InitializingScreen />}
      failed={(retry) => (
        <div className="cf-initializing">
          <Alert>Confab could not be loaded. Check your connection and try again.</Alert>
          <Button onClick={retry}>Try again</Button>
        </div>
      )}
    >
      {children}
    </LazyBoundary>
  );
}
