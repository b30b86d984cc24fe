import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfabClient } from '@confab/client';
import { startServer, type ConfabServer } from '../src/index';

/*
 * The real client against the real confab-server: an e-mail invitation reaches an open app live,
 * is accepted there, a non-admin cannot invite, and leaving takes the chat out of the list.
 */

let server: ConfabServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'confab-invitations-it-'));
  server = await startServer({ port: 0, host: '127.0.0.1', dataDir, logger: false, smtpUrl: '' });
});

afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function waitUntil(condition: () => boolean, description: string, timeoutMs = 10_000): Promise<void> {
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
  await waitUntil(() => client.store.getState().isConnected, `${username} to connect`);
  return client;
}

describe('invitations and leaving with the real client', () => {
  it('delivers an invitation live, joins on accept, keeps non-admins from inviting, and leaves', async () => {
    const alice = await signedUp('alice_inv');
    const bob = await signedUp('bob_inv');
    try {
      await bob.chats.list();
      await bob.invitations.listPending();
      expect(bob.store.getState().invitations).toEqual([]);

      const chat = await alice.chats.create({ name: 'Invited' });
      await expect(alice.invitations.inviteToChat(chat.id, 'BOB_INV@example.com')).resolves.toEqual({ success: true, status: 'invited', chat_id: chat.id });
      await waitUntil(() => bob.store.getState().invitations.length === 1, 'the invitation to reach bob');
      const [invitation] = bob.store.getState().invitations;
      expect(invitation).toMatchObject({ chat: { id: chat.id, name: 'Invited' }, invited_by: { username: 'alice_inv' } });
      expect(bob.store.getState().chats).toEqual([]);

      await expect(bob.invitations.acceptPending(invitation?.id ?? '')).resolves.toEqual({ chatId: chat.id });
      expect(bob.store.getState().invitations).toEqual([]);
      expect(bob.store.getState().chats.map((joined) => joined.id)).toEqual([chat.id]);

      await expect(bob.invitations.inviteToChat(chat.id, 'carol@example.com')).rejects.toMatchObject({
        status: 403,
        message: 'Only chat admins can invite people.',
      });

      await alice.chats.list();
      await expect(alice.chats.leave(chat.id)).rejects.toMatchObject({
        status: 400,
        message: 'You are the last admin of this chat. Make another participant an admin before leaving.',
      });
      await bob.chats.leave(chat.id);
      expect(bob.store.getState().chats).toEqual([]);
      await waitUntil(() => alice.store.getState().chats[0]?.participants.length === 1, 'alice to see bob leave');
    } finally {
      alice.logout();
      bob.logout();
    }
  });
});
