import { createContext, useContext, type ComponentType } from 'react';
import type { LinkProps } from '../components/Link/Link';
import { Link } from '../components/Link/Link';
import type { LogoProps } from '../components/Logo/Logo';
import { Logo } from '../components/Logo/Logo';
import type { SpinnerProps } from '../components/Spinner/Spinner';
import { Spinner } from '../components/Spinner/Spinner';

/**
 * The parts a host app may replace (house style 9): pass overrides to
 * `<ConfabProvider components={{ Link: MyRouterLink }}>`; anything not overridden keeps its default.
 */
export interface ConfabComponents {
  /** Every in-app link. The default renders `<a href>` and routes the click through `navigate`. */
  Link: ComponentType<LinkProps>;
  /** The product mark shown in the navbar, auth cards and sidebar. */
  Logo: ComponentType<LogoProps>;
  /** The loading indicator (decorative; the surrounding text carries the meaning). */
  Spinner: ComponentType<SpinnerProps>;
}

export const defaultComponents: ConfabComponents = { Link, Logo, Spinner };

export const ComponentsContext = createContext<ConfabComponents | null>(null);

/** The components in effect: the defaults merged with the provider's overrides. */
export function useComponents(): ConfabComponents {
  const components = useContext(ComponentsContext);
  if (components === null) {
    throw new Error('useComponents must be used inside <ConfabProvider>.');
  }
  return components;
}
