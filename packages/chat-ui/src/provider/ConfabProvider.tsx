import { useMemo, type ReactNode } from 'react';
import { browserNavigate } from '../routing/browserNavigate';
import type { ConfabUiClient } from './clientInterface';
import { ConfabContext, type ConfabContextValue } from './ConfabContext';
import { ComponentsContext, defaultComponents, type ComponentsInEffect, type ConfabComponents } from './ComponentsContext';
import { ConfabRoot, type ConfabTheme } from './ConfabRoot';
import type { NavigateFunction } from './types';

export interface ConfabProviderProps {
  /**
   * The client every screen talks through; its store drives the hooks. A `ConfabClient` from
   * @confab/client, or anything implementing `ConfabUiClient` (your own transport).
   */
  client: ConfabUiClient;
  /**
   * How in-app links and redirects move to another path. chat-ui never imports a router: pass
   * your router's navigate (react-router: `(to, options) => navigate(to, options)`). Default
   * `browserNavigate`: history.pushState (replaceState for `replace`) and a popstate event.
   */
  navigate?: NavigateFunction | undefined;
  /** 'light' (default), 'dark', or 'auto' to follow the visitor's `prefers-color-scheme`. */
  theme?: ConfabTheme | undefined;
  /**
   * Let screens set document.title ('Design - Confab', the chat page's '(n) New messages!' while
   * the tab is hidden); each restores the title it found when it goes. Default false: the page's
   * title is the host's.
   */
  documentTitle?: boolean | undefined;
  /** Extra classes on the root element (`<div class="confab-root">`), e.g. to size it. */
  className?: string | undefined;
  /**
   * Render no root element, so nothing of the theme applies below the provider: for hosts that
   * use only the headless hooks with their own markup and styles. chat-ui components used there
   * need a `<ConfabRoot>` around them to be styled. Default false.
   */
  unstyled?: boolean | undefined;
  /**
   * Replacements for the overridable parts (Link, Logo, Spinner, Message, EmptyState,
   * MessageInput, ChatHeader); the rest keep their defaults. See `ConfabComponents`.
   */
  components?: Partial<ConfabComponents> | undefined;
  children?: ReactNode | undefined;
}

/**
 * Makes a client, the navigate function and the component overrides available to every chat-ui
 * screen, component and hook below it, inside one `<div class="confab-root">` that the theme's
 * styles are scoped under (nothing outside it is restyled).
 *
 * @example
 * <ConfabProvider client={new ConfabClient({ baseUrl: 'https://chat.example.com' })} theme="auto">
 *   <LoginScreen />
 * </ConfabProvider>
 */
export function ConfabProvider({
  client,
  navigate = browserNavigate,
  theme = 'light',
  documentTitle = false,
  className,
  unstyled = false,
  components,
  children,
}: ConfabProviderProps) {
  const value = useMemo<ConfabContextValue>(() => ({ client, navigate, documentTitle }), [client, navigate, documentTitle]);
  // Hosts often pass `components` inline; memoising on the individual overrides keeps consumers
  // from re-rendering when nothing really changed.
  const { Link, Logo, Spinner, Message, EmptyState, MessageInput, ChatHeader } = components ?? {};
  const merged = useMemo<ComponentsInEffect>(
    () => ({
      Link: Link ?? defaultComponents.Link,
      Logo: Logo ?? defaultComponents.Logo,
      Spinner: Spinner ?? defaultComponents.Spinner,
      ...(Message === undefined ? {} : { Message }),
      ...(EmptyState === undefined ? {} : { EmptyState }),
      ...(MessageInput === undefined ? {} : { MessageInput }),
      ...(ChatHeader === undefined ? {} : { ChatHeader }),
    }),
    [Link, Logo, Spinner, Message, EmptyState, MessageInput, ChatHeader],
  );
  return (
    <ConfabContext.Provider value={value}>
      <ComponentsContext.Provider value={merged}>
        {unstyled ? (
          children
        ) : (
          <ConfabRoot theme={theme} className={className}>
            {children}
          </ConfabRoot>
        )}
      </ComponentsContext.Provider>
    </ConfabContext.Provider>
  );
}
