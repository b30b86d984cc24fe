import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfabClient } from '@confab/client';
import { startServer, type ConfabServer } from '../src/index';

/* The real client against the real confab-server on port 0: one message each way, live. */

let server: ConfabServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'confab-client-it-'));
  server = await startServer({ port: 0, host: '127.0.0.1', dataDir, logger: false });
});

afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Waits for real socket I/O to make a condition true. */
async function waitUntil(condition: () => boolean, description: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${description}`);
    await new Promise<void>((resolve) => setTimeout(resolve, 5));
  }
}

async function signedUp(username: string): Promise<ConfabClient> {
  const client = new ConfabClient({ baseUrl: server.url, realtime: { WebSocket: WebSocket as unknown as typeof globalThis.WebSocket } });
  const password = 'correct-horse-battery';
  await client.register({ email: `${username}@example.com`, username, password, passwordConfirm: password });
  await waitUntil(() => client.store.getState().isConnected, `${username} to connect`, 10_000);
  return client;
}

describe('client against @confab/server', () => {
  it('sends a message optimistically and both members receive it live, in order', async () => {
    const alice = await signedUp('alice_it');
    const bob = await signedUp('bob_it');
    const chat = await alice.chats.create({ name: 'Integration' });
    await alice.chats.addParticipant(chat.id, bob.requireUser().id);
    await alice.messages.open(chat.id);
    await bob.messages.open(chat.id);
    // No wait for bob's join: it resumes from after_seq 0, so a message sent first is replayed.

    const pending = alice.messages.send(chat.id, 'hello bob');
    expect(pending.status).toBe('pending');
    await waitUntil(() => alice.store.getState().messages.at(-1)?.status === 'sent', 'alice to see it confirmed', 10_000);
    await waitUntil(() => bob.store.getState().messages.length === 1, 'bob to receive it', 10_000);
    bob.messages.send(chat.id, 'hi alice');
    await waitUntil(() => alice.store.getState().messages.length === 2, 'alice to receive the answer', 10_000);

    const view = (client: ConfabClient) => client.store.getState().messages.map((message) => [message.seq, message.author_username, message.content]);
    expect(view(alice)).toEqual([
      [1, 'alice_it', 'hello bob'],
      [2, 'bob_it', 'hi alice'],
    ]);
    await waitUntil(() => bob.store.getState().messages.at(-1)?.status === 'sent', 'bob to see his confirmed', 10_000);
    expect(view(bob)).toEqual(view(alice));
    alice.logout();
    bob.logout();
  }, 30_000);
});
