import type { ReactNode } from 'react';
import { usePrivateRoute } from '../../routing/usePrivateRoute';
import { Navigate, useLocation } from '../router';

export interface PrivateRouteProps {
  children: ReactNode;
}

/**
 * docs/PRODUCT.md §2 guard: after the initial 100 ms check, visitors without a session are sent to
 * /login, replacing the history entry so Back does not bounce them into the guard again.
 */
export function PrivateRoute({ children }: PrivateRouteProps) {
  const { pathname } = useLocation();
  const decision = usePrivateRoute(pathname);
  if (decision === 'redirect') return <Navigate to="/login" replace />;
  // Nothing during the 100 ms check: a flash of either screen would be worse than a blank frame.
  return decision === 'allow' ? children : null;
}
