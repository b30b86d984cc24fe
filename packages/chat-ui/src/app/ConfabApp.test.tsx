import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { createTestClient } from '../../test/renderWithConfab';
import { stubMessageListLayout } from '../../test/layout';
import { ConfabApp } from './ConfabApp';
import * as page from './pages';

/*
 * ConfabApp over a real client and the one fake backend: its routing under a base path and in
 * memory, the sign-in guard, the shell staying while a page's code loads, prefetch on intent,
 * and the document title it takes only when asked.
 */

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };

configure({ asyncUtilTimeout: 5_000 });

beforeEach(() => {
  stubMessageListLayout(600);
  window.history.replaceState(null, '', '/host/page');
  document.title = 'Host page';
});
afterEach(() => window.history.replaceState(null, '', '/'));

async function startApp(ui: (client: ReturnType<typeof createTestClient>) => React.ReactElement) {
  const backend = createFakeBackend({ users: [alice] });
  backend.addChat({ id: 'chat_design_001', name: 'Design', description: 'Weekly sync', participants: [alice.id] });
  const client = createTestClient(backend);
  const result = render(ui(client));
  await act(() => client.initialize());
  return { ...result, client, backend, user: userEvent.setup({ delay: null }) };
}

/** Through the sign-in form, which navigates to '/' when it is done. */
async function signIn(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Username'), 'alice');
  await user.type(screen.getByLabelText('Password'), 'wonderland');
  await user.click(screen.getByRole('button', { name: /sign in/i }));
}

describe('ConfabApp under a base path', () => {
  it('keeps every path under the base path: links, navigation, the sign-in redirect and Back', async () => {
    window.history.replaceState(null, '', '/team-chat/profile');
    const { user } = await startApp((client) => <ConfabApp client={client} routing={{ basePath: '/team-chat/' }} />);
    // A private page without a session: to the app's /login, under the base path.
    await waitFor(() => expect(window.location.pathname).toBe('/team-chat/login'));
    expect(await screen.findByRole('heading', { name: /sign in/i })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/team-chat/register');

    await signIn(user);
    await waitFor(() => expect(window.location.pathname).toBe('/team-chat/'));
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    await user.click(await within(sidebar).findByRole('link', { name: /Design/ }));
    expect(window.location.pathname).toBe('/team-chat/chat/chat_design_001');
    expect(await screen.findByRole('heading', { level: 1, name: 'Design' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Chat Options' }));
    expect(window.location.pathname).toBe('/team-chat/chat/chat_design_001/options');
    expect(await screen.findByRole('heading', { name: 'Chat Options' })).toBeInTheDocument();

    act(() => window.history.back());
    await waitFor(() => expect(window.location.pathname).toBe('/team-chat/chat/chat_design_001'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Design' })).toBeInTheDocument();
  });

  it('keeps the shell while a page loads for the first time: only the main area shows a placeholder', async () => {
    window.history.replaceState(null, '', '/app');
    const { client } = await startApp((client) => <ConfabApp client={client} routing={{ basePath: '/app' }} />);
    await act(() => client.login('alice', 'wonderland'));
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(page.DropsFeed.isLoaded()).toBe(false);
    // fireEvent inside a synchronous act: the render right after the click, before the code is here.
    act(() => {
      fireEvent.click(within(sidebar).getByRole('button', { name: 'Drops Feed' }));
    });
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toBe(sidebar);
    // The placeholder, where the page goes (the navigation's render may land a tick after the click).
    expect(await within(screen.getByRole('main')).findByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Drops' })).toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toBe(sidebar);
  });

  it("fetches a page's code when the pointer or focus reaches its link, so the click shows it at once", async () => {
    window.history.replaceState(null, '', '/');
    const { client } = await startApp((client) => <ConfabApp client={client} />);
    await act(() => client.login('alice', 'wonderland'));
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    const myAgents = within(sidebar).getByRole('button', { name: /My Agents/ });
    expect(page.Agents.isLoaded()).toBe(false);
    fireEvent.pointerEnter(myAgents);
    await waitFor(() => expect(page.Agents.isLoaded()).toBe(true));
    act(() => {
      fireEvent.click(myAgents);
    });
    expect(screen.getByRole('heading', { name: 'My Agents' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/agents');

    const confabAgents = within(sidebar).getByRole('button', { name: /Confab Agents/ });
    expect(page.ConfabAgents.isLoaded()).toBe(false);
    act(() => confabAgents.focus());
    await waitFor(() => expect(page.ConfabAgents.isLoaded()).toBe(true));
  });

  it("starts loading the first page's code with the app, while the session is still being set up", async () => {
    window.history.replaceState(null, '', '/team-chat/chat/new');
    expect(page.NewChat.isLoaded()).toBe(false);
    const backend = createFakeBackend({ users: [alice] });
    render(<ConfabApp client={createTestClient(backend)} routing={{ basePath: '/team-chat' }} />);
    // Not initialized: the start screen shows, and the page's code is on its way all the same.
    expect(screen.getByRole('status')).toBeInTheDocument();
    await waitFor(() => expect(page.NewChat.isLoaded()).toBe(true));
  });
});

describe("the chat header's page buttons", () => {
  it('fetch the page they open when pointed at or focused', async () => {
    const { user } = await startApp((client) => <ConfabApp client={client} routing={{ type: 'memory', initialPath: '/login' }} />);
    await signIn(user);
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    await user.click(await within(sidebar).findByRole('link', { name: /Design/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Design' })).toBeInTheDocument();
    expect(page.InviteUser.isLoaded()).toBe(false);
    expect(page.ChatDrops.isLoaded()).toBe(false);
    fireEvent.pointerEnter(screen.getByRole('button', { name: 'Invite User' }));
    act(() => screen.getByRole('button', { name: 'View Drops' }).focus());
    await waitFor(() => expect(page.InviteUser.isLoaded() && page.ChatDrops.isLoaded()).toBe(true));
  });
});

describe('ConfabApp in memory', () => {
  it("never changes the host's URL, and starts at initialPath", async () => {
    const { user } = await startApp((client) => <ConfabApp client={client} routing={{ type: 'memory', initialPath: '/login' }} />);
    expect(await screen.findByRole('heading', { name: /sign in/i })).toBeInTheDocument();
    await signIn(user);
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    await user.click(within(sidebar).getByRole('button', { name: 'New Chat' }));
    expect(await screen.findByRole('heading', { name: 'Create New Chat' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/host/page');
  });
});

describe('ConfabApp and document.title', () => {
  it("leaves the host's title alone by default", async () => {
    const { client } = await startApp((client) => <ConfabApp client={client} routing={{ type: 'memory', initialPath: '/chat/chat_design_001' }} />);
    await act(() => client.login('alice', 'wonderland'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Design' })).toBeInTheDocument();
    expect(document.title).toBe('Host page');
  });

  it("with documentTitle takes the title, and gives the host's back on unmount", async () => {
    const { client, unmount } = await startApp((client) => (
      <ConfabApp client={client} routing={{ type: 'memory', initialPath: '/chat/chat_design_001' }} documentTitle />
    ));
    await act(() => client.login('alice', 'wonderland'));
    await waitFor(() => expect(document.title).toBe('Design - Confab'));
    unmount();
    expect(document.title).toBe('Host page');
  });
});
