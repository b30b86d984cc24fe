import { useEffect } from 'react';
import { useNavigate } from '../provider/hooks';
import type { NavigateOptions } from '../provider/types';

/**
 * Navigates to `to` once `delayMs` has passed while `active` is true (docs/PRODUCT.md §9 redirect
 * delays). The timer is cleared if the component unmounts first, so a user who clicks away is not
 * yanked back.
 */
export function useRedirectAfter(active: boolean, to: string, delayMs: number, options?: NavigateOptions): void {
  const navigate = useNavigate();
  const replace = options?.replace;
  useEffect(() => {
    if (!active) return undefined;
    const timer = setTimeout(() => (replace ? navigate(to, { replace }) : navigate(to)), delayMs);
    return () => clearTimeout(timer);
  }, [active, to, delayMs, replace, navigate]);
}
