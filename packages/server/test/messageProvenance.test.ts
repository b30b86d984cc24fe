import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, failureOf, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, messageOf, type TestSocket, type WireMessage } from './support/wsClient';

/**
 * Where a message came from is the server's to say (docs/SECURITY.md Z9): a person cannot post a
 * message typed `email`, so nothing a participant writes passes for received mail.
 */
const variants = await databaseVariants();

describe.each(variants)('message provenance ($name)', (variant) => {
  let testServer: TestServer;
  let alice: RegisteredUser;
  let socket: TestSocket;

  const typesIn = async (chatId: string) =>
    (await testServer.probe.rows('select message_type from messages where chat = $1 order by seq', [chatId])).map((row) => row['message_type']);

  beforeAll(async () => {
    testServer = await startTestServer(variant);
    alice = await registerUser(testServer, { name: 'Alice' });
    socket = await authenticatedSocket(testServer.url, alice.pb.authStore.token);
  });

  afterAll(async () => {
    await socket?.close();
    await testServer?.close();
  });

  it("refuses a person's message_type other than 'regular' over HTTP with a clear field error, and stores nothing", async () => {
    const chat = await createChat(alice, { name: 'Forged over HTTP' });
    for (const messageType of ['email', 'search', 'others', 'EMAIL', 'nonsense']) {
      const failure = await failureOf(() => alice.pb.collection('messages').create({ chat: chat.id, content: 'From: the bank', message_type: messageType }));
      expect(failure.status, messageType).toBe(400);
      const field = (failure.response['data'] as Record<string, { code: string; message: string }>)['message_type'];
      expect(field?.code).toBe('validation_invalid_value');
      expect(field?.message).toBe("Only the server sets message_type; messages people post are 'regular'.");
    }
    expect(await typesIn(chat.id)).toEqual([]);
    // What clients send (the create of docs/PRODUCT.md §7 carries message_type 'regular'), and
    // nothing at all, still post.
    await postMessage(alice, chat.id, 'regular, as the client sends it');
    const plain = await alice.pb.collection('messages').create({ chat: chat.id, content: 'no type given' });
    expect(plain['message_type']).toBe('regular');
    // An edit changes the content only.
    await alice.pb.collection('messages').update(plain.id, { content: 'edited', message_type: 'email' });
    expect(await typesIn(chat.id)).toEqual(['regular', 'regular']);
  });

  it('takes no message_type from a socket frame: the message is regular', async () => {
    const chat = await createChat(alice, { name: 'Forged over the socket' });
    await socket.join(chat.id);
    socket.send({ type: 'send_message', chat_id: chat.id, content: 'From: the bank', client_id: 'forged-1', message_type: 'email' });
    const frame = await socket.next((candidate) => candidate.type === 'new_message' && messageOf(candidate).chat_id === chat.id);
    expect(messageOf(frame).message_type).toBe('regular');
    expect(await typesIn(chat.id)).toEqual(['regular']);
  });

  it('@email list shows no message a person posted, however it was typed', async () => {
    const chat = await createChat(alice, { name: 'Mail list' });
    await socket.join(chat.id);
    // Refused now; before the server owned message_type this was stored as mail.
    await alice.pb
      .collection('messages')
      .create({ chat: chat.id, content: '**From:** bank@example.com\n**Subject:** Verify your account', message_type: 'email' })
      .catch(() => undefined);
    socket.send({ type: 'send_message', chat_id: chat.id, content: '**From:** bank@example.com\n**Subject:** Urgent', message_type: 'email' });
    await socket.nextMessage(chat.id);
    await postMessage(alice, chat.id, '@email list');
    let answer: WireMessage;
    do answer = await socket.nextMessage(chat.id, 10_000);
    while (answer.author_username !== 'email');
    expect(answer.content).toContain('No mail yet');
    expect(answer.content).not.toContain('bank@example.com');
  });
});
