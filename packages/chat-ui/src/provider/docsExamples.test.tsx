import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { act, configure, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType, ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfabClient } from '@confab/client';
import { createFakeBackend, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { stubMessageListLayout } from '../../test/layout';
import { createTestClient } from '../../test/renderWithConfab';
import type { MessageProps } from '../components/Message/Message';
import { MessageList } from '../components/MessageList/MessageList';
import { useChat } from '../hooks/useChat';
import { clientMessage } from '../testing/builders';
import type { ConfabUiClient } from './clientInterface';
import { ConfabProvider } from './ConfabProvider';

/*
 * The examples of packages/chat-ui/README.md and docs/embedding.md, run as written. A block
 * written ```tsx file=<name> is an example: it is saved as that file (under test-results/, which
 * git ignores) and imported, so the code compiles and runs against chat-ui's source. What differs
 * from a reader's app, and only that: requests go to the one fake backend (global fetch), there
 * is no WebSocket (sends fail after their timeout instead of being confirmed), and the theme
 * import is left out (src/provider/themeSheet.test.ts checks the sheet).
 */

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const repoRoot = join(packageRoot, '..', '..');
const exampleDirectory = join(packageRoot, 'test-results', 'doc-examples');

function examplesOf(page: string): Map<string, string> {
  const text = readFileSync(join(repoRoot, page), 'utf8');
  const examples = new Map<string, string>();
  for (const match of text.matchAll(/^```tsx? file=(\S+)\n([\s\S]*?)^```$/gm)) {
    const [, file = '', code = ''] = match;
    examples.set(file, code);
  }
  return examples;
}

/** Saves an example as its file and imports it. */
async function importExample<Module>(page: string, file: string): Promise<Module> {
  const code = examplesOf(page).get(file);
  if (code === undefined) throw new Error(`${page} no longer has the example ${file}`);
  mkdirSync(exampleDirectory, { recursive: true });
  const path = join(exampleDirectory, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, code.replace(/^import '@confab\/chat-ui\/theme\.css';\n/m, ''));
  return (await import(/* @vite-ignore */ path)) as Module;
}

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };
const bob = { id: 'user_bob_000001', username: 'bob', email: 'bob@example.com', name: 'Bob Builder', password: 'builder123' };

function seededBackend(): FakeBackend {
  const backend = createFakeBackend({ users: [alice, bob] });
  backend.addChat({ id: 'chat_design_001', name: 'Design', description: 'Weekly sync', participants: [alice.id, bob.id] });
  backend.addMessages('chat_design_001', 3, [bob.id, alice.id]);
  return backend;
}

async function signedInClient(backend: FakeBackend): Promise<ConfabClient> {
  const client = createTestClient(backend);
  await client.login('alice', 'wonderland');
  return client;
}

function renderIn(client: ConfabUiClient, ui: ReactNode, options: { unstyled?: boolean } = {}) {
  return render(
    <ConfabProvider client={client} unstyled={options.unstyled}>
      {ui}
    </ConfabProvider>,
  );
}

// Whole screens over a real client: on a loaded machine they take more than the default second.
configure({ asyncUtilTimeout: 5_000 });

beforeEach(() => {
  stubMessageListLayout(600);
  window.history.replaceState(null, '', '/');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('packages/chat-ui/README.md', () => {
  it('opens with a runnable example of at most 15 lines', () => {
    const code = examplesOf('packages/chat-ui/README.md').get('readme-example.tsx') ?? '';
    const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
    expect(readme.indexOf('```tsx file=readme-example.tsx')).toBeLessThan(readme.indexOf('\n## '));
    expect(code.trimEnd().split('\n').length).toBeLessThanOrEqual(15);
  });

  it('the example is the whole product under /team-chat: every sidebar page renders, and a chat sends', async () => {
    const backend = seededBackend();
    vi.stubGlobal('fetch', backend.fetch);
    vi.stubGlobal('WebSocket', undefined);
    window.history.replaceState(null, '', '/team-chat/');
    document.body.innerHTML = '<div id="confab" style="height: 450px"></div>';
    // A whole app starting (session check, sign-in, chat list, chat): give a loaded machine time.
    const slow = { timeout: 10_000 };
    try {
      const user = userEvent.setup();
      await act(() => importExample('packages/chat-ui/README.md', 'readme-example.tsx'));

      // The landing page, then Sign In, all under the base path.
      await user.click((await screen.findAllByRole('link', { name: 'Sign In' }, slow))[0]!);
      expect(window.location.pathname).toBe('/team-chat/login');
      await user.type(await screen.findByLabelText('Username', {}, slow), 'alice');
      await user.type(screen.getByLabelText('Password'), 'wonderland');
      await user.click(screen.getByRole('button', { name: 'Sign In' }));

      const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' }, slow);
      for (const [entry, heading] of [
        ['New Chat', 'Create New Chat'],
        ['Drops Feed', 'Drops'],
        ['My Profile', 'My Profile'],
        ['My Agents', 'My Agents'],
      ] as const) {
        await user.click(within(sidebar).getByRole('button', { name: new RegExp(`^${entry}`) }));
        expect(await screen.findByRole('heading', { level: 1, name: heading }, slow)).toBeInTheDocument();
      }
      expect(window.location.pathname).toBe('/team-chat/agents');

      const chats = within(sidebar).getByRole('navigation', { name: 'Chats' });
      await user.click(await within(chats).findByRole('link', { name: /^Design/ }, slow));
      expect(window.location.pathname).toBe('/team-chat/chat/chat_design_001');
      expect(await screen.findByRole('heading', { level: 1, name: 'Design' }, slow)).toBeInTheDocument();
      const log = await screen.findByRole('log', { name: 'Messages' }, slow);
      expect(await within(log).findByText('Message 3', {}, slow)).toBeInTheDocument();
      await user.type(screen.getByRole('combobox', { name: 'Message' }), 'Hello from the README{Enter}');
      expect(await within(log).findByText('Hello from the README', {}, slow)).toBeInTheDocument();
    } finally {
      // The example's root cannot be unmounted from here; detached, it receives nothing more.
      document.body.innerHTML = '';
    }
  });

  it('own-pages.tsx (building your own pages) signs in, opens a chat from the sidebar and sends', async () => {
    const backend = seededBackend();
    vi.stubGlobal('fetch', backend.fetch);
    vi.stubGlobal('WebSocket', undefined);
    document.body.innerHTML = '<div id="root"></div>';
    const slow = { timeout: 10_000 };
    try {
      const user = userEvent.setup();
      await act(() => importExample('packages/chat-ui/README.md', 'own-pages.tsx'));

      await user.type(await screen.findByLabelText('Username', {}, slow), 'alice');
      await user.type(screen.getByLabelText('Password'), 'wonderland');
      await user.click(screen.getByRole('button', { name: 'Sign In' }));

      const chats = await screen.findByRole('navigation', { name: 'Chats' }, slow);
      await user.click(await within(chats).findByRole('link', { name: /^Design/ }, slow));
      expect(window.location.pathname).toBe('/chat/chat_design_001');
      expect(await screen.findByRole('heading', { level: 1, name: 'Design' }, slow)).toBeInTheDocument();
      const log = await screen.findByRole('log', { name: 'Messages' }, slow);
      expect(await within(log).findByText('Message 3', {}, slow)).toBeInTheDocument();

      await user.type(screen.getByRole('combobox', { name: 'Message' }), 'Hello from the README{Enter}');
      expect(await within(log).findByText('Hello from the README', {}, slow)).toBeInTheDocument();
    } finally {
      document.body.innerHTML = '';
    }
  });
});

describe('docs/embedding.md', () => {
  const page = 'docs/embedding.md';

  it('no-router.tsx: links move the History API and the screens follow', async () => {
    const { Screens } = await importExample<{ Screens: ComponentType }>(page, 'no-router.tsx');
    const client = await signedInClient(seededBackend());
    const user = userEvent.setup();
    renderIn(client, <Screens />);
    expect(await screen.findByText('Select a chat to get started')).toBeInTheDocument();
    const chats = await screen.findByRole('navigation', { name: 'Chats' });
    await user.click(await within(chats).findByRole('link', { name: /^Design/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Design' })).toBeInTheDocument();
    act(() => window.history.back());
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    act(() => window.dispatchEvent(new PopStateEvent('popstate')));
    expect(await screen.findByText('Select a chat to get started')).toBeInTheDocument();
  });

  it('headless-chat.tsx: the hooks drive a chat with the host’s own markup', async () => {
    const { MyChat } = await importExample<{ MyChat: ComponentType }>(page, 'headless-chat.tsx');
    const client = await signedInClient(seededBackend());
    const user = userEvent.setup();
    const { container } = renderIn(client, <MyChat />, { unstyled: true });
    expect(container.querySelector('.confab-root')).toBeNull();
    await user.click(await within(screen.getByRole('navigation', { name: 'My chats' })).findByRole('button', { name: 'Design' }));
    const messages = await screen.findByRole('region', { name: 'My messages' });
    expect(await within(messages).findByText('Message 3')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Say something' }), 'Hi from my UI{Enter}');
    expect(await within(messages).findByText('Hi from my UI')).toBeInTheDocument();
  });

  it('override-message.tsx: agents’ messages get the frame, people’s do not', async () => {
    const { FramedMessage } = await importExample<{ FramedMessage: ComponentType<MessageProps> }>(page, 'override-message.tsx');
    const client = createTestClient(createFakeBackend());
    render(
      <ConfabProvider client={client} components={{ Message: FramedMessage }}>
        <MessageList
          messages={[
            clientMessage({ message_id: 'm1', content: 'From a person', author_name: 'Bob' }),
            clientMessage({ message_id: 'm2', content: 'From an agent', author_name: 'Deep', is_agent: true }),
          ]}
        />
      </ConfabProvider>,
    );
    expect(await screen.findByTestId('agent-frame')).toHaveTextContent('From an agent');
    expect(screen.getAllByTestId('agent-frame')).toHaveLength(1);
    expect(screen.getByText('From a person')).toBeInTheDocument();
  });

  it('own-transport.ts: the wrapped client serves the UI and reports sends', async () => {
    const { withSendAnalytics } = await importExample<{
      withSendAnalytics: (base: ConfabClient, report: (chatId: string) => void) => ConfabUiClient;
    }>(page, 'own-transport.ts');
    const base = await signedInClient(seededBackend());
    const report = vi.fn();
    const client = withSendAnalytics(base, report);
    const { result } = renderHook(() => useChat('chat_design_001'), {
      wrapper: ({ children }: { children: ReactNode }) => <ConfabProvider client={client}>{children}</ConfabProvider>,
    });
    await waitFor(() => expect(result.current.opened).toBe(true));
    act(() => void result.current.send('Counted'));
    expect(report).toHaveBeenCalledWith('chat_design_001');
    expect(result.current.messages.at(-1)?.content).toBe('Counted');
  });
});
