import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createFakeBackend, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { createTestClient } from '../../test/renderWithConfab';
import { ConfabProvider } from '../provider/ConfabProvider';
import { useAgentSearch, useChat, useChatList, useDropsFeed } from './index';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };
const bob = { id: 'user_bob_000001', username: 'bob', email: 'bob@example.com', name: 'Bob Builder', password: 'builder123' };

/** The hooks with no markup at all: a real client over the one fake backend, signed in as Alice. */
async function renderSignedIn<T>(hook: () => T, prepare: (backend: FakeBackend) => void = () => {}) {
  const backend = createFakeBackend({ users: [alice, bob] });
  prepare(backend);
  const client = createTestClient(backend);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ConfabProvider client={client} navigate={vi.fn()} unstyled>
      {children}
    </ConfabProvider>
  );
  const rendered = renderHook(hook, { wrapper });
  await act(() => client.login('alice', 'wonderland'));
  return { ...rendered, client, backend };
}

describe('useChatList', () => {
  it('loads the signed-in user’s chats into the store and follows it', async () => {
    const { result, client } = await renderSignedIn(useChatList, (backend) => {
      backend.addChat({ id: 'chat_design_001', name: 'Design', participants: [alice.id, bob.id] });
      backend.addChat({ id: 'chat_other_0001', name: 'Not mine', participants: [bob.id] });
    });
    await waitFor(() => expect(result.current.chats.map((chat) => chat.name)).toEqual(['Design']));
    expect(result.current.loading).toBe(false);
    expect(result.current.error).toBeNull();
    const [design] = result.current.chats;
    act(() => client.store.setState({ chats: design ? [{ ...design, name: 'Design team' }] : [] }));
    expect(result.current.chats[0]?.name).toBe('Design team');
  });

  it('reports a failed load, and reload tries again', async () => {
    const { result, backend } = await renderSignedIn(useChatList, (backend) => {
      backend.addChat({ id: 'chat_design_001', name: 'Design', participants: [alice.id] });
    });
    await waitFor(() => expect(result.current.chats).toHaveLength(1));
    backend.failNext(500, 'Database unavailable');
    await act(() => result.current.reload());
    expect(result.current.error).not.toBeNull();
    await act(() => result.current.reload());
    expect(result.current.error).toBeNull();
    expect(result.current.chats).toHaveLength(1);
  });
});

describe('useChat', () => {
  const seedChat = (count: number) => (backend: FakeBackend) => {
    backend.addChat({ id: 'chat_design_001', name: 'Design', participants: [alice.id, bob.id] });
    backend.addMessages('chat_design_001', count, [bob.id, alice.id]);
  };

  it('opens the chat: its record, latest page, connection state; closes it on unmount', async () => {
    const { result, client, unmount } = await renderSignedIn(() => useChat('chat_design_001'), seedChat(3));
    await waitFor(() => expect(result.current.opened).toBe(true));
    expect(result.current.chat?.name).toBe('Design');
    expect(result.current.messages.map((message) => message.content)).toEqual(['Message 1', 'Message 2', 'Message 3']);
    expect(result.current.loading).toBe(false);
    expect(result.current.hasOlder).toBe(false);
    expect(result.current.error).toBeNull();
    expect(result.current.connectionState).toBe('idle');
    act(() => client.store.setState({ connectionState: 'connected' }));
    expect(result.current.connectionState).toBe('connected');
    unmount();
    expect(client.store.getState().currentChat).toBeNull();
  });

  it('pages back with loadOlder while hasOlder', async () => {
    const { result } = await renderSignedIn(() => useChat('chat_design_001'), seedChat(120));
    await waitFor(() => expect(result.current.opened).toBe(true));
    expect(result.current.hasOlder).toBe(true);
    const firstPage = result.current.messages.length;
    await act(() => result.current.loadOlder());
    expect(result.current.messages).toHaveLength(2 * firstPage);
    expect(result.current.messages.at(-1)?.content).toBe('Message 120');
    // 120 messages: two pages loaded, one left.
    expect(result.current.hasOlder).toBe(true);
    await act(() => result.current.loadOlder());
    expect(result.current.messages[0]?.content).toBe('Message 1');
    expect(result.current.hasOlder).toBe(false);
  });

  it('sends optimistically and retries through client.messages', async () => {
    const { result, client } = await renderSignedIn(() => useChat('chat_design_001'), seedChat(1));
    await waitFor(() => expect(result.current.opened).toBe(true));
    let sent: ReturnType<typeof result.current.send> | undefined;
    act(() => {
      sent = result.current.send('  Hello Bob  ');
    });
    expect(sent).toMatchObject({ content: 'Hello Bob', status: expect.stringMatching(/pending|failed/) });
    expect(result.current.messages.at(-1)?.content).toBe('Hello Bob');
    const retry = vi.spyOn(client.messages, 'retry');
    act(() => result.current.retry(sent?.client_id ?? ''));
    expect(retry).toHaveBeenCalledWith(sent?.client_id);
    expect(() => result.current.send('   ')).toThrow();
  });

  it('tells a missing chat from a failed load, and reload opens it again', async () => {
    const missing = await renderSignedIn(() => useChat('chat_missing_01'), seedChat(0));
    await waitFor(() => expect(missing.result.current.notFound).toBe(true));
    expect(missing.result.current.error).toBeNull();
    expect(missing.result.current.loading).toBe(false);
    missing.unmount();

    const { result, backend } = await renderSignedIn(() => useChat('chat_design_001'), (backend) => {
      seedChat(2)(backend);
    });
    await waitFor(() => expect(result.current.opened).toBe(true));
    backend.failNext(500, 'Database unavailable');
    act(() => result.current.reload());
    await waitFor(() => expect(result.current.error).not.toBeNull());
    expect(result.current.notFound).toBe(false);
    act(() => result.current.reload());
    await waitFor(() => expect(result.current.opened).toBe(true));
    expect(result.current.error).toBeNull();
  });
});

describe('useAgentSearch', () => {
  it('is idle for a blank query, then searches after the debounce and lists agents', async () => {
    const { result, rerender } = await renderSignedIn(
      ({ query }: { query: string | null } = { query: null }) => useAgentSearch(query, { debounceMs: 10 }),
      (backend) => {
        backend.addAgent({ username: 'deep', name: 'Deep Research', agent_type: 'confab-agent' });
      },
    );
    expect(result.current).toEqual({ status: 'idle' });
    rerender({ query: 'deep' });
    expect(result.current).toEqual({ status: 'searching', query: 'deep' });
    await waitFor(() => expect(result.current.status).toBe('results'));
    expect(result.current.status === 'results' && result.current.agents.map((agent) => agent.username)).toEqual(['deep']);
    rerender({ query: 'nobody-like-this' });
    await waitFor(() => expect(result.current).toEqual({ status: 'none', query: 'nobody-like-this' }));
  });
});

describe('useDropsFeed', () => {
  const seedDrops = (backend: FakeBackend) => {
    for (let index = 0; index < 3; index += 1) backend.addDrop({ title: `Launch note ${index + 1}`, chat_id: 'chat_launch_01', chat_name: 'Launch' });
    backend.addDrop({ title: 'Design system', chat_id: 'chat_design_01', chat_name: 'Design', like_count: 10 });
    backend.dropData.follows.add('chat_launch_01');
  };

  it('opens a feed at page 1 and switches feeds with its kind', async () => {
    const { result, rerender } = await renderSignedIn(({ kind }: { kind: 'following' | 'trending' } = { kind: 'following' }) => useDropsFeed(kind), seedDrops);
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.drops.map((drop) => drop.title)).toEqual(['Launch note 3', 'Launch note 2', 'Launch note 1']);
    expect(result.current).toMatchObject({ error: null, hasMore: false, totalCount: 3, loadingMore: false, newDrops: [] });
    rerender({ kind: 'trending' });
    // Never the other feed's drops under the new kind.
    expect(result.current.drops).toEqual([]);
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.drops.map((drop) => drop.title)).toContain('Design system');
  });

  it('reports a failed load, and reload opens the feed again', async () => {
    const { result, backend } = await renderSignedIn(() => useDropsFeed('following'), seedDrops);
    await waitFor(() => expect(result.current.loading).toBe(false));
    backend.failNext(500, 'Database unavailable');
    await act(() => result.current.reload());
    expect(result.current.error).not.toBeNull();
    expect(result.current.loading).toBe(false);
    await act(() => result.current.reload());
    expect(result.current.error).toBeNull();
    expect(result.current.drops).toHaveLength(3);
  });
});
