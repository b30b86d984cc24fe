import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { LazyBoundary } from '../../internal/lazyPart';
import { useComponents } from '../../provider/ComponentsContext';
import { useLocation } from '../router';

/**
 * The main area of the signed-in shell while a page's code loads: the sidebar stays, and only
 * where the page goes shows a spinner (a status, without a second <main> landmark), filling the
 * area so nothing jumps when the page arrives. A page that could not be downloaded says so there.
 */
export function PageBoundary({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  return (
    <LazyBoundary
      resetKey={pathname}
      fallback={<PageLoading />}
      failed={(retry) => (
        <div className="cf-page-loading">
          <Alert>This page could not be loaded. Check your connection and try again.</Alert>
          <Button onClick={retry}>Try again</Button>
        </div>
      )}
    >
      {children}
    </LazyBoundary>
  );
}

export function PageLoading() {
  const { Spinner } = useComponents();
  return (
    <div role="status" className="cf-page-loading cf-initializing__status">
      <Spinner />
      <p>Loading...</p>
    </div>
  );
}
