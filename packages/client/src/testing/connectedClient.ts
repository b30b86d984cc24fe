import { ConfabClient } from '../client/ConfabClient';
import type { ConfabClientOptions } from '../client/ConfabClient';
import type { WireMessage } from '../protocol';
import type { FakeGateway } from './fakeGateway';
import type { FakeServer } from './fakeServer';
import { waitUntil } from './waitUntil';
import { WebSocketForTests } from './ws';

/* A ConfabClient signed in as alice against the fake HTTP server, realtime on the fake gateway. */

export async function connectedClient(server: FakeServer, gateway: FakeGateway, options: ConfabClientOptions = {}): Promise<ConfabClient> {
  server.configAnswer = { status: 200, body: { websocket_url: gateway.url } };
  const client = new ConfabClient({ baseUrl: server.url, ...options, realtime: { WebSocket: WebSocketForTests, ...options.realtime } });
  await client.login('alice', 'correct-horse');
  await waitUntil(() => client.store.getState().connectionState === 'connected', 'the client to connect');
  return client;
}

/** Stores `count` messages in both fakes, as the real server's record API and gateway share one log. */
export function seedMessages(server: FakeServer, gateway: FakeGateway, chatId: string, count: number, authorId = 'alice0000000001'): void {
  for (let index = 0; index < count; index += 1) {
    const record = server.addMessage(chatId, authorId, `message ${index + 1}`);
    const wire: WireMessage = {
      message_id: record.id,
      chat_id: chatId,
      author_id: authorId,
      author_name: 'alice',
      author_username: 'alice',
      content: record.content ?? '',
      created_at: record.created,
      message_type: 'regular',
      seq: record.seq ?? 0,
      is_agent: false,
    };
    const log = gateway.log.get(chatId) ?? [];
    log.push(wire);
    gateway.log.set(chatId, log);
  }
}
