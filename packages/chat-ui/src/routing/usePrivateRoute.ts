import { useEffect, useState } from 'react';
import { constants, type ClientState } from '@confab/client';
import { useConfabStore } from '../provider/hooks';
import { isPublicPath } from './paths';

/** 'checking' during the initial check, then 'allow' or 'redirect' (to /login, replacing history). */
export type PrivateRouteDecision = 'checking' | 'allow' | 'redirect';

const selectIsAuthenticated = (state: ClientState) => state.isAuthenticated;

/**
 * The private-route guard of docs/PRODUCT.md §2: signed-in users pass at once; anyone else is sent
 * to /login after an initial check of 100 ms, unless the path is public. The host turns 'redirect'
 * into its router's redirect, e.g. `<Navigate to="/login" replace />`.
 */
export function usePrivateRoute(pathname: string, checkMs: number = constants.privateRouteAuthCheckMs): PrivateRouteDecision {
  const isAuthenticated = useConfabStore(selectIsAuthenticated);
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setChecked(true), checkMs);
    return () => clearTimeout(timer);
  }, [checkMs]);
  if (isAuthenticated || isPublicPath(pathname)) return 'allow';
  return checked ? 'redirect' : 'checking';
}
