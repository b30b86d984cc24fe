import { render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { stubMessageListLayout } from '../../test/layout';
import { createTestClient, renderWithConfab } from '../../test/renderWithConfab';
import { Link } from '../components/Link/Link';
import { MessageList } from '../components/MessageList/MessageList';
import { Message, type MessageProps } from '../components/Message/Message';
import { clientMessage } from '../testing/builders';
import { useBrowserLocation } from '../routing/browserNavigate';
import type { ConfabUiClient } from './clientInterface';
import { ConfabProvider } from './ConfabProvider';
import { ConfabRoot } from './ConfabRoot';
import { useConfabClient, useNavigate } from './hooks';

afterEach(() => window.history.replaceState(null, '', '/'));

describe('the theme root', () => {
  it('wraps the provider’s children in one .confab-root, light by default', () => {
    const { container } = renderWithConfab(<p>Inside</p>);
    const root = container.firstElementChild;
    expect(root).toHaveClass('confab-root');
    expect(root).toHaveAttribute('data-confab-theme', 'light');
    expect(root).toContainElement(screen.getByText('Inside'));
  });

  it.each(['dark', 'auto'] as const)('takes theme="%s" and extra classes', (theme) => {
    const { container } = render(
      <ConfabProvider client={createTestClient(createFakeBackend())} theme={theme} className="chat-pane">
        <p>Inside</p>
      </ConfabProvider>,
    );
    expect(container.firstElementChild).toHaveAttribute('data-confab-theme', theme);
    expect(container.firstElementChild).toHaveClass('confab-root', 'chat-pane');
  });

  it('renders no root when unstyled (headless use)', () => {
    const { container } = render(
      <ConfabProvider client={createTestClient(createFakeBackend())} unstyled>
        <p>Mine</p>
      </ConfabProvider>,
    );
    expect(container.querySelector('.confab-root')).toBeNull();
    expect(container.firstElementChild).toHaveTextContent('Mine');
  });

  it('is available alone, for parts used outside a provider', () => {
    const { container } = render(<ConfabRoot theme="dark">Part</ConfabRoot>);
    expect(container.firstElementChild).toHaveClass('confab-root');
    expect(container.firstElementChild).toHaveAttribute('data-confab-theme', 'dark');
  });
});

describe('navigation without a router', () => {
  it('defaults to the History API: a Link click pushes the path and fires popstate', async () => {
    const onPopState = vi.fn();
    window.addEventListener('popstate', onPopState);
    function Location() {
      return <output>{useBrowserLocation().pathname}</output>;
    }
    render(
      <ConfabProvider client={createTestClient(createFakeBackend())}>
        <Link to="/register?source=test">Create an account</Link>
        <Location />
      </ConfabProvider>,
    );
    await userEvent.click(screen.getByRole('link', { name: 'Create an account' }));
    expect(window.location.pathname + window.location.search).toBe('/register?source=test');
    expect(onPopState).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status')).toHaveTextContent('/register');
    window.removeEventListener('popstate', onPopState);
  });

  it('replaces the entry and carries state when asked', () => {
    const client = createTestClient(createFakeBackend());
    const { result } = renderHook(() => useNavigate(), {
      wrapper: ({ children }: { children: ReactNode }) => <ConfabProvider client={client}>{children}</ConfabProvider>,
    });
    const length = window.history.length;
    result.current('/chat/new', { replace: true, state: { firstMessage: 'hi' } });
    expect(window.location.pathname).toBe('/chat/new');
    expect(window.history.length).toBe(length);
    expect(window.history.state).toEqual({ firstMessage: 'hi' });
  });
});

describe('the client interface', () => {
  it('accepts a host’s own implementation (here: a ConfabClient wrapped to log sends)', () => {
    const base = createTestClient(createFakeBackend());
    const sent: string[] = [];
    // Everything the UI uses, passed through, with one method replaced.
    const client: ConfabUiClient = {
      store: base.store,
      baseUrl: base.baseUrl,
      chats: base.chats,
      realtime: base.realtime,
      invitations: base.invitations,
      account: base.account,
      files: base.files,
      agents: base.agents,
      drops: base.drops,
      messages: {
        open: (chatId) => base.messages.open(chatId),
        closeChat: (chatId) => base.messages.closeChat(chatId),
        loadOlder: (chatId) => base.messages.loadOlder(chatId),
        retry: (clientId) => base.messages.retry(clientId),
        edit: (messageId, content) => base.messages.edit(messageId, content),
        remove: (messageId) => base.messages.remove(messageId),
        react: (messageId, emoji) => base.messages.react(messageId, emoji),
        unreact: (messageId, emoji) => base.messages.unreact(messageId, emoji),
        send: (chatId, content) => {
          sent.push(content);
          return base.messages.send(chatId, content);
        },
      },
      loadConfig: () => base.loadConfig(),
      login: (identity, password) => base.login(identity, password),
      register: (input) => base.register(input),
      logout: () => base.logout(),
      requestPasswordReset: (email) => base.requestPasswordReset(email),
      confirmPasswordReset: (token, password, passwordConfirm) => base.confirmPasswordReset(token, password, passwordConfirm),
    };
    const { result } = renderHook(() => useConfabClient(), {
      wrapper: ({ children }: { children: ReactNode }) => <ConfabProvider client={client}>{children}</ConfabProvider>,
    });
    expect(result.current).toBe(client);
  });
});

describe('overridable components', () => {
  // The message list is virtualised: give it a viewport in jsdom.
  beforeEach(() => stubMessageListLayout(600));
  afterEach(() => vi.restoreAllMocks());

  it('renders the host’s Message in the message list, with the default’s props', () => {
    function FramedMessage(props: MessageProps) {
      return (
        <div data-testid="framed">
          <Message {...props} />
        </div>
      );
    }
    renderWithConfab(<MessageList messages={[clientMessage({ content: 'Hello there', author_name: 'Bob' })]} />, {
      components: { Message: FramedMessage },
    });
    expect(screen.getByTestId('framed')).toHaveTextContent('Hello there');
  });

  it('renders the host’s EmptyState in an empty chat', () => {
    renderWithConfab(<MessageList messages={[]} userName="Alice" />, {
      components: { EmptyState: ({ userName }) => <p>Nothing here yet, {userName}</p> },
    });
    expect(screen.getByText('Nothing here yet, Alice')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Welcome, Alice!' })).not.toBeInTheDocument();
  });
});
