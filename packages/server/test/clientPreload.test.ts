import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BaseAuthStore } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfabClient } from '@confab/client';
import { startServer, type ConfabServer } from '../src/index';

/*
 * The real client against the real confab-server: a full load of /chat/{id} asks for the chat and
 * its latest messages as soon as the stored session is known (client.preloadRoute), and the chat
 * page's messages.open uses those answers instead of asking again.
 */

let server: ConfabServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'confab-client-preload-'));
  server = await startServer({ port: 0, host: '127.0.0.1', dataDir, logger: false, messagesPerUserPerSecond: 10_000 });
});

afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const password = 'correct-horse-battery';

/** A person signed up by a client of their own, without a socket (the record API is enough here). */
async function signedUp(username: string): Promise<ConfabClient> {
  const client = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false } });
  await client.register({ email: `${username}@example.com`, username, password, passwordConfirm: password });
  return client;
}

/**
 * The requests a client makes, by path (query left out), in the order they go out; an answer to
 * the session refresh is noted among them as 'refreshed'.
 */
function countingFetch(): { fetch: typeof fetch; count: (path: string) => number; events: string[] } {
  const events: string[] = [];
  return {
    fetch: async (input, init) => {
      const { pathname } = new URL(input instanceof Request ? input.url : String(input));
      events.push(pathname);
      const response = await globalThis.fetch(input, init);
      if (pathname.endsWith('/auth-refresh')) events.push('refreshed');
      return response;
    },
    count: (path) => events.filter((seen) => seen === path).length,
    events,
  };
}

/** A page reload: a new client over the session another one stored (as localStorage keeps it). */
function reloaded(from: ConfabClient, fetch: typeof globalThis.fetch): ConfabClient {
  const authStore = new BaseAuthStore();
  authStore.save(from.pb.authStore.token, from.pb.authStore.record);
  return new ConfabClient({ baseUrl: server.url, authStore, fetch, realtime: { autoConnect: false } });
}

describe('preloading a route against @confab/server', () => {
  it('opens a chat from the requests preloadRoute started: one for the chat, one for its messages', async () => {
    const owner = await signedUp('preload_owner');
    const chat = await owner.chats.create({ name: 'Preloaded' });
    for (let index = 1; index <= 3; index += 1) {
      await owner.pb.collection('messages').create({ chat: chat.id, content: `message ${index}` });
    }
    const requests = countingFetch();
    const client = reloaded(owner, requests.fetch);

    const initialized = client.initialize();
    client.preloadRoute(`/chat/${chat.id}`);
    await initialized;
    // Out together with the session refresh, not after its answer.
    const refreshed = requests.events.indexOf('refreshed');
    expect(refreshed).toBeGreaterThan(0);
    expect(requests.events.indexOf(`/api/collections/chats/records/${chat.id}`)).toBeLessThan(refreshed);
    expect(requests.events.indexOf('/api/collections/messages/records')).toBeLessThan(refreshed);
    await client.messages.open(chat.id);

    expect(client.store.getState().currentChat?.name).toBe('Preloaded');
    expect(client.store.getState().messages.map((message) => message.content)).toEqual(['message 1', 'message 2', 'message 3']);
    expect(requests.count(`/api/collections/chats/records/${chat.id}`)).toBe(1);
    expect(requests.count('/api/collections/messages/records')).toBe(1);

    // Used once: opening the chat again later asks afresh (and sees what was written since).
    await owner.pb.collection('messages').create({ chat: chat.id, content: 'message 4' });
    await client.messages.open(chat.id);
    expect(client.store.getState().messages.at(-1)?.content).toBe('message 4');
    expect(requests.count('/api/collections/messages/records')).toBe(2);
    client.logout();
    owner.logout();
  });

  it('does not use a failed prefetch: the open asks again and shows what is there now', async () => {
    const owner = await signedUp('preload_admin');
    const guest = await signedUp('preload_guest');
    const chat = await owner.chats.create({ name: 'Not yet joined' });
    await owner.pb.collection('messages').create({ chat: chat.id, content: 'before the guest' });
    const requests = countingFetch();
    const client = reloaded(guest, requests.fetch);
    await client.initialize();

    // The guest is not a participant yet: the prefetched chat is a 404.
    client.preloadRoute(`/chat/${chat.id}`);
    await owner.chats.addParticipant(chat.id, guest.requireUser().id);
    await client.messages.open(chat.id);

    expect(client.store.getState().currentChat?.name).toBe('Not yet joined');
    // Then the system line of the guest's addition (docs/CONTRACTS.md, File messages and system lines).
    expect(client.store.getState().messages.map((message) => [message.message_type, message.system?.kind ?? message.content])).toEqual([
      ['regular', 'before the guest'],
      ['system', 'added'],
    ]);
    expect(requests.count(`/api/collections/chats/records/${chat.id}`)).toBe(2);
    client.logout();
    owner.logout();
    guest.logout();
  });

  it('starts nothing without a session, or on paths that open no chat', async () => {
    const owner = await signedUp('preload_paths');
    const chat = await owner.chats.create({ name: 'Paths' });
    const requests = countingFetch();
    const signedOut = new ConfabClient({ baseUrl: server.url, fetch: requests.fetch, realtime: { autoConnect: false } });
    await signedOut.initialize();
    signedOut.preloadRoute(`/chat/${chat.id}`);
    const client = reloaded(owner, requests.fetch);
    for (const path of ['/chat/new', `/chat/${chat.id}/options`, '/chat', '/login', '/']) client.preloadRoute(path);
    expect(requests.count('/api/collections/messages/records')).toBe(0);
    expect(requests.count(`/api/collections/chats/records/${chat.id}`)).toBe(0);

    // A missing chat fails the open with a clear 404, prefetched or not.
    client.preloadRoute('/chat/nosuchchat12345');
    await expect(client.messages.open('nosuchchat12345')).rejects.toMatchObject({ status: 404 });
    owner.logout();
  });
});
