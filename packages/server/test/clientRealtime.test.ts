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
  // The resume test writes 620 messages as fast as it can: above the per-user message limit.
  server = await startServer({ port: 0, host: '127.0.0.1', dataDir, logger: false, messagesPerUserPerSecond: 10_000 });
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

/**
 * Every socket the clients opened, so a test can cut one as a network failure would; while
 * `network.down`, new sockets go to a closed port and fail as an unreachable server does.
 */
const sockets: WebSocket[] = [];
const network = { down: false };
class TrackedWebSocket extends WebSocket {
  constructor(address: string | URL, ...rest: unknown[]) {
    super(network.down ? 'ws://127.0.0.1:1/' : address, ...(rest as []));
    sockets.push(this);
  }
}

async function signedUp(username: string, realtime: { reconnectBaseDelayMs?: number } = {}): Promise<ConfabClient> {
  const client = new ConfabClient({ baseUrl: server.url, realtime: { WebSocket: TrackedWebSocket as unknown as typeof globalThis.WebSocket, ...realtime } });
  const password = 'correct-horse-battery';
  await client.register({ email: `${username}@example.com`, username, password, passwordConfirm: password });
  await waitUntil(() => client.store.getState().isConnected, `${username} to connect`, 10_000);
  return client;
}

describe('client against @confab/server', () => {
  it('sends a message optimistically and both members receive it live, in order', async () => {
    const alice = await signedUp('alice_it');
    const bob = await signedUp('bob_it');
    // Bob from the start: adding him later writes a system line first (docs/CONTRACTS.md, File messages and system lines).
    const chat = await alice.pb.collection('chats').create({ name: 'Integration', participants: [bob.requireUser().id] });
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

  it('after missing more than 500 messages a resume replays 500 and pages the rest: the full log, in order, once', async () => {
    const alice = await signedUp('alice_gap');
    const bob = await signedUp('bob_gap', { reconnectBaseDelayMs: 200 });
    // Bob from the start: adding him later writes a system line first (docs/CONTRACTS.md, File messages and system lines).
    const chat = await alice.pb.collection('chats').create({ name: 'Busy while away', participants: [bob.requireUser().id] });
    await bob.messages.open(chat.id);
    alice.messages.send(chat.id, 'before the cut');
    await waitUntil(() => bob.store.getState().messages.length === 1, 'bob to have the first message', 10_000);

    // Bob's network goes down: his socket dies and reconnecting fails until it is back.
    const bobSocket = sockets.at(-1);
    expect(bobSocket).toBeDefined();
    network.down = true;
    bobSocket?.terminate();
    await waitUntil(() => !bob.store.getState().isConnected, 'bob to notice the cut', 10_000);

    const missed = Array.from({ length: 620 }, (_, index) => `missed ${index + 1}`);
    for (let start = 0; start < missed.length; start += 20) {
      await Promise.all(
        missed.slice(start, start + 20).map((content) => alice.pb.collection('messages').create({ chat: chat.id, encryptedContent: content, message_type: 'regular' })),
      );
    }
    expect(bob.store.getState().isConnected).toBe(false);
    expect(bob.store.getState().messages).toHaveLength(1);

    // Back online: retrying on its own, or (after its five tries) reconnected as the app would.
    network.down = false;
    if (bob.realtime.state === 'closed') bob.realtime.connect();
    await waitUntil(() => bob.store.getState().messages.length === 621, 'bob to hold all 621 messages', 30_000);
    const seqs = bob.store.getState().messages.map((message) => message.seq);
    expect(seqs).toEqual(Array.from({ length: 621 }, (_, index) => index + 1));
    const contents = new Set(bob.store.getState().messages.map((message) => message.content));
    for (const content of missed) expect(contents.has(content)).toBe(true);
    alice.logout();
    bob.logout();
  }, 60_000);

  it('edits and deletions reach the other member live, and one who was away finds them after reconnecting', async () => {
    const alice = await signedUp('alice_edit');
    const bob = await signedUp('bob_edit', { reconnectBaseDelayMs: 200 });
    // Bob from the start: adding him later writes a system line first (docs/CONTRACTS.md, File messages and system lines).
    const chat = await alice.pb.collection('chats').create({ name: 'Edits', participants: [bob.requireUser().id] });
    await alice.messages.open(chat.id);
    await bob.messages.open(chat.id);
    for (const content of ['Lunch at 12?', 'Never mind', 'Third']) alice.messages.send(chat.id, content);
    await waitUntil(() => bob.store.getState().messages.length === 3, 'bob to have three messages', 10_000);
    await waitUntil(() => alice.store.getState().messages.every((message) => message.status === 'sent'), 'alice to have them confirmed', 10_000);
    const [lunch, never, third] = alice.store.getState().messages;
    const shownTo = (client: ConfabClient) => client.store.getState().messages.map((message) => [message.content, message.edited_at !== undefined, message.deleted_at !== undefined]);

    await alice.messages.edit(lunch!.message_id, 'Lunch at 1?');
    expect(shownTo(alice)[0]).toEqual(['Lunch at 1?', true, false]);
    await waitUntil(() => bob.store.getState().messages[0]?.content === 'Lunch at 1?', 'bob to see the edit', 10_000);
    await alice.messages.remove(never!.message_id);
    await waitUntil(() => bob.store.getState().messages[1]?.deleted_at !== undefined, 'bob to see the deletion', 10_000);
    expect(shownTo(bob)).toEqual([
      ['Lunch at 1?', true, false],
      ['', false, true],
      ['Third', false, false],
    ]);
    // Only the author edits; Bob is no admin of Alice's chat, so her message is not his to delete.
    await expect(bob.messages.edit(third!.message_id, 'mine now')).rejects.toMatchObject({ status: 404 });
    await expect(bob.messages.remove(third!.message_id)).rejects.toMatchObject({ status: 404 });
    await expect(alice.messages.edit(third!.message_id, '   ')).rejects.toMatchObject({ status: 400 });

    // Bob's network goes down; Alice edits and deletes meanwhile; back online, Bob has both.
    const bobSocket = sockets.at(-1);
    network.down = true;
    bobSocket?.terminate();
    await waitUntil(() => !bob.store.getState().isConnected, 'bob to notice the cut', 10_000);
    await alice.messages.edit(third!.message_id, 'Third, edited while Bob was away');
    await alice.messages.remove(lunch!.message_id);
    network.down = false;
    if (bob.realtime.state === 'closed') bob.realtime.connect();
    await waitUntil(() => bob.store.getState().messages[2]?.content === 'Third, edited while Bob was away', 'bob to catch up on the edit', 20_000);
    await waitUntil(() => bob.store.getState().messages[0]?.deleted_at !== undefined, 'bob to catch up on the deletion', 10_000);
    expect(shownTo(bob)).toEqual([
      ['', true, true],
      ['', false, true],
      ['Third, edited while Bob was away', true, false],
    ]);
    alice.logout();
    bob.logout();
  }, 60_000);
  it('reactions reach the other member live, and one who was away finds them after reconnecting', async () => {
    const ann = await signedUp('ann_react');
    const bob = await signedUp('bob_react', { reconnectBaseDelayMs: 200 });
    const chat = await ann.chats.create({ name: 'Reactions' });
    await ann.chats.addParticipant(chat.id, bob.requireUser().id);
    await ann.messages.open(chat.id);
    await bob.messages.open(chat.id);
    ann.messages.send(chat.id, 'Ship it?');
    await waitUntil(() => bob.store.getState().messages.length === 1 && ann.store.getState().messages[0]?.status === 'sent', 'the message to arrive', 10_000);
    const id = ann.store.getState().messages[0]!.message_id;
    const chipsOf = (client: ConfabClient) => (client.store.getState().messages[0]?.reactions ?? []).map((reaction) => `${reaction.emoji} ${reaction.count}: ${reaction.users.map((user) => user.username).join(', ')}`);

    const pending = bob.messages.react(id, '👍');
    // Optimistic: Bob sees his own chip before the server answers.
    expect(chipsOf(bob)).toEqual(['👍 1: bob_react']);
    await pending;
    await waitUntil(() => chipsOf(ann).length === 1, 'ann to see the reaction', 10_000);
    expect(chipsOf(ann)).toEqual(['👍 1: bob_react']);
    await ann.messages.react(id, '👍');
    await waitUntil(() => chipsOf(bob)[0] === '👍 2: bob_react, ann_react', 'bob to see both', 10_000);
    await expect(bob.messages.react(id, 'not an emoji')).rejects.toMatchObject({ status: 400 });

    // Bob's network goes down; Ann takes hers back and adds another; back online, Bob has both changes.
    const bobSocket = sockets.at(-1);
    network.down = true;
    bobSocket?.terminate();
    await waitUntil(() => !bob.store.getState().isConnected, 'bob to notice the cut', 10_000);
    await ann.messages.unreact(id, '👍');
    await ann.messages.react(id, '🚀');
    network.down = false;
    if (bob.realtime.state === 'closed') bob.realtime.connect();
    await waitUntil(() => chipsOf(bob).length === 2 && chipsOf(bob)[0] === '👍 1: bob_react', 'bob to catch up on the reactions', 20_000);
    expect(chipsOf(bob)).toEqual(['👍 1: bob_react', '🚀 1: ann_react']);
    ann.logout();
    bob.logout();
  }, 60_000);
});
