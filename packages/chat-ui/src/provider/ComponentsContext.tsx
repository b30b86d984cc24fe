import { createContext, useContext, type ComponentType } from 'react';
import type { ChatHeaderProps } from '../components/ChatHeader/ChatHeader';
import type { LinkProps } from '../components/Link/Link';
import { Link } from '../components/Link/Link';
import type { LogoProps } from '../components/Logo/Logo';
import { Logo } from '../components/Logo/Logo';
import type { MessageProps } from '../components/Message/Message';
import type { MessageInputProps } from '../components/MessageInput/MessageInput';
import type { MessageListEmptyProps } from '../components/MessageList/MessageListEmpty';
import type { SpinnerProps } from '../components/Spinner/Spinner';
import { Spinner } from '../components/Spinner/Spinner';

/**
 * The parts a host app may replace (docs/STYLE.md, Overrides through one components context): pass
 * overrides to `<ConfabProvider components={{ Message: MyMessage }}>`; anything not overridden
 * keeps its default. An override receives the same props as the default it replaces (exported as
 * `MessageProps`, `LinkProps`…), and may render the default itself to decorate it.
 *
 * @example
 * function MyMessage(props: MessageProps) {
 *   return <div className="my-message"><Message {...props} /></div>;
 * }
 * <ConfabProvider client={client} components={{ Message: MyMessage }}>…</ConfabProvider>
 */
export interface ConfabComponents {
  /** Every in-app link. The default renders `<a href>` and routes the click through `navigate`. */
  Link: ComponentType<LinkProps>;
  /** The product mark shown in the navbar, auth cards and sidebar. */
  Logo: ComponentType<LogoProps>;
  /** The loading indicator (decorative; the surrounding text carries the meaning). */
  Spinner: ComponentType<SpinnerProps>;
  /** One message in a chat's message list: avatar, author, time and body. */
  Message: ComponentType<MessageProps>;
  /** What an empty chat shows instead of messages (a welcome and agent suggestions). */
  EmptyState: ComponentType<MessageListEmptyProps>;
  /** The chat page's input: text, @-mention autocomplete, uploads. */
  MessageInput: ComponentType<MessageInputProps>;
  /** The chat page's header: name, connection, search and the chat's actions. */
  ChatHeader: ComponentType<ChatHeaderProps>;
}

/** The parts every screen uses, whose defaults the provider supplies. */
export type SharedComponentName = 'Link' | 'Logo' | 'Spinner';

/**
 * The components in effect: the shared parts (defaults merged with overrides), and the chat
 * page's parts only when overridden. Their defaults are imported where they are used (MessageList,
 * ChatPage), so a page without a chat never loads the message renderer (markdown, sanitiser).
 */
export type ComponentsInEffect = Pick<ConfabComponents, SharedComponentName> & Partial<Omit<ConfabComponents, SharedComponentName>>;

/** The defaults of the shared parts (Link, Logo, Spinner); the chat page's parts default where they render. */
export const defaultComponents: Pick<ConfabComponents, SharedComponentName> = { Link, Logo, Spinner };

export const ComponentsContext = createContext<ComponentsInEffect | null>(null);

/** The components in effect: the defaults merged with the provider's overrides. */
export function useComponents(): ComponentsInEffect {
  const components = useContext(ComponentsContext);
  if (components === null) {
    throw new Error('useComponents must be used inside <ConfabProvider>.');
  }
  return components;
}
