import { createContext, useContext } from 'react';

/**
 * What ConfabApp tells the links and buttons of its screens: the `href` of an app path (under its
 * base path), and how to fetch a path's page code ahead of a click. Outside ConfabApp a path is
 * its own href and nothing is fetched ahead (the host's router owns both).
 */
export interface AppLinks {
  href: (to: string) => string;
  prefetch: (to: string) => void;
}

const standalone: AppLinks = { href: (to) => to, prefetch: () => {} };

export const AppLinksContext = createContext<AppLinks>(standalone);

export function useAppLinks(): AppLinks {
  return useContext(AppLinksContext);
}

/** Props that fetch the page of `to` when the pointer or focus reaches the element. */
export function usePrefetchIntent(): (to: string) => { onPointerEnter: () => void; onFocus: () => void } {
  const { prefetch } = useAppLinks();
  return (to) => ({ onPointerEnter: () => prefetch(to), onFocus: () => prefetch(to) });
}
