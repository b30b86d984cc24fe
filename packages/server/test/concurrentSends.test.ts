import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';

/**
 * Sends that arrive together are committed together (store/repositories/messageInsert.ts): each
 * must still be stored exactly once, in its own chat, with a gapless seq, and a retried client_id
 * among them must answer the message already stored while the others are kept.
 */
const variants = await databaseVariants();

describe.each(variants)('concurrent sends ($name)', (variant) => {
  let testServer: TestServer;
  let ann: RegisteredUser;
  let bob: RegisteredUser;

  beforeAll(async () => {
    testServer = await startTestServer(variant, { messagesPerUserPerSecond: 1000 });
    ann = await registerUser(testServer, { name: 'Ann' });
    bob = await registerUser(testServer, { name: 'Bob' });
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('stores every message of a burst to two chats once, seqs gapless, a repeated client_id answered with the stored one', async () => {
    const first = await createChat(ann, { name: 'First', participants: [bob.record.id] });
    const second = await createChat(ann, { name: 'Second', participants: [bob.record.id] });
    const sends = Array.from({ length: 40 }, (_, index) => {
      const author = index % 2 === 0 ? ann : bob;
      const chat = index % 4 < 2 ? first : second;
      // Sends 5 and 9 (Bob, first chat) carry the same client_id: one message.
      const clientId = index === 5 || index === 9 ? 'same-retry' : `send-${index}`;
      return author.pb.collection('messages').create({ chat: chat.id, content: `message ${index}`, client_id: clientId }, { requestKey: null });
    });
    const answers = await Promise.all(sends);
    expect(answers[5]!.id).toBe(answers[9]!.id);
    for (const chat of [first, second]) {
      const rows = await testServer.probe.rows('select seq, client_id from messages where chat = $1 order by seq', [chat.id]);
      expect(rows.map((row) => Number(row['seq']))).toEqual(rows.map((_, index) => index + 1));
      expect(new Set(rows.map((row) => row['client_id'])).size).toBe(rows.length);
    }
    const stored = await testServer.probe.rows('select id from messages where chat in ($1, $2)', [first.id, second.id]);
    expect(stored).toHaveLength(39);
    expect(new Set(answers.map((answer) => answer.id)).size).toBe(39);
  });
});
