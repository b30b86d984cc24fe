import { useConfabStore } from '../../provider/hooks';
import { Home, Shell } from '../pages';
import { Outlet, useLocation } from '../router';
import { PageBoundary } from './PageLoading';
import { PrivateRoute } from './PrivateRoute';

/**
 * The layout of '/' and every private route: the signed-in shell with the routed page in its
 * main area. Being one route element above all of them, the shell stays mounted from page to page,
 * and a page loading for the first time shows its placeholder in the main area only. '/' without a
 * session is the landing page instead.
 */
export function SignedInFrame() {
  const { pathname } = useLocation();
  const isAuthenticated = useConfabStore((state) => state.isAuthenticated);
  if (pathname === '/' && !isAuthenticated) return <Home />;
  return (
    <PrivateRoute>
      <Shell>
        <PageBoundary>
          <Outlet />
        </PageBoundary>
      </Shell>
    </PrivateRoute>
  );
}
