import { useMemo, type ReactNode } from 'react';
import type { ConfabClient } from '@confab/client';
import { ConfabContext, type ConfabContextValue } from './ConfabContext';
import { ComponentsContext, defaultComponents, type ConfabComponents } from './ComponentsContext';
import type { NavigateFunction } from './types';

export interface ConfabProviderProps {
  /** The client every screen talks through; its store drives the hooks. */
  client: ConfabClient;
  /** The host router's navigate; chat-ui never imports a router. */
  navigate: NavigateFunction;
  /** Overrides for the replaceable parts (Link, Logo, Spinner); the rest keep their defaults. */
  components?: Partial<ConfabComponents>;
  children?: ReactNode;
}

/**
 * Makes a ConfabClient, the host's navigate function and the component overrides available to
 * every chat-ui screen below it.
 *
 * @example
 * <ConfabProvider client={new ConfabClient()} navigate={(to) => history.pushState(null, '', to)}>
 *   <LoginScreen />
 * </ConfabProvider>
 */
export function ConfabProvider({ client, navigate, components, children }: ConfabProviderProps) {
  const value = useMemo<ConfabContextValue>(() => ({ client, navigate }), [client, navigate]);
  // Hosts often pass `components` inline; merging on each render is cheap, but memoising on the
  // individual overrides keeps consumers from re-rendering when nothing really changed.
  const { Link, Logo, Spinner } = components ?? {};
  const merged = useMemo<ConfabComponents>(
    () => ({
      Link: Link ?? defaultComponents.Link,
      Logo: Logo ?? defaultComponents.Logo,
      Spinner: Spinner ?? defaultComponents.Spinner,
    }),
    [Link, Logo, Spinner],
  );
  return (
    <ConfabContext.Provider value={value}>
      <ComponentsContext.Provider value={merged}>{children}</ComponentsContext.Provider>
    </ConfabContext.Provider>
  );
}
