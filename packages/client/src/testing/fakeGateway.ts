import type { AddressInfo } from 'node:net';
import type { ClientFrame, ServerFrame, WireMessage } from '../protocol';
import { WebSocketServer } from './ws';
import type { NodeWebSocket } from './ws';

/*
 * A tiny WebSocket gateway speaking the issue-3 protocol (docs/CONTRACTS.md), for tests of the
 * realtime connection and the messages service. Behaviour switches let a test make it misbehave.
 */

export interface FakeGateway {
  url: string;
  /** Every frame received, in order. */
  received: ClientFrame[];
  /** Sockets currently open. */
  sockets: Set<NodeWebSocket>;
  /** Per chat, the stored messages in seq order. */
  log: Map<string, WireMessage[]>;
  /** Tokens accepted by authenticate_with_token (user id per token). Empty: accept any. */
  tokens: Map<string, string>;
  answerAuth: boolean;
  answerPings: boolean;
  /** Store but do not deliver new messages (a send that never gets confirmed). */
  swallowSends: boolean;
  /** Appends a message to a chat as if another user sent it, delivering it to joined sockets. */
  append(chatId: string, content: string, options?: { authorId?: string; clientId?: string }): WireMessage;
  push(frame: ServerFrame): void;
  /** Kills every socket without a close handshake (a dropped network). */
  dropAll(): void;
  /** Stops listening; connects are refused until restart(). */
  stop(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeGateway(): Promise<FakeGateway> {
  const joined = new Map<NodeWebSocket, Set<string>>();
  const authenticated = new Map<NodeWebSocket, string>();
  const sentByClientId = new Map<string, WireMessage>();
  let server: WebSocketServer;
  let port = 0;

  const send = (socket: NodeWebSocket, frame: ServerFrame): void => socket.send(JSON.stringify(frame));
  const deliver = (message: WireMessage, clientId?: string): void => {
    for (const [socket, chats] of joined) {
      if (!chats.has(message.chat_id)) continue;
      send(socket, clientId === undefined ? { type: 'new_message', message } : { type: 'new_message', message, client_id: clientId });
    }
  };
  const store = (chatId: string, content: string, authorId: string): WireMessage => {
    const messages = gateway.log.get(chatId) ?? [];
    gateway.log.set(chatId, messages);
    const seq = messages.length + 1;
    const message: WireMessage = {
      message_id: `msg${chatId}${String(seq).padStart(6, '0')}`,
      chat_id: chatId,
      author_id: authorId,
      author_name: authorId,
      author_username: authorId,
      content,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
      message_type: 'regular',
      seq,
      is_agent: false,
    };
    messages.push(message);
    return message;
  };

  const handle = (socket: NodeWebSocket, frame: ClientFrame): void => {
    gateway.received.push(frame);
    if (frame.type === 'authenticate_with_token') {
      if (!gateway.answerAuth) return;
      const userId = gateway.tokens.size === 0 ? 'alice0000000001' : gateway.tokens.get(frame.token);
      if (userId === undefined) {
        send(socket, { type: 'authError', message: 'Invalid token' });
        socket.close(4001, 'authentication failed');
        return;
      }
      authenticated.set(socket, userId);
      send(socket, { type: 'authSuccess', user_id: userId });
      return;
    }
    const userId = authenticated.get(socket);
    if (userId === undefined) {
      send(socket, { type: 'error', code: 'not_authenticated', message: 'Authenticate first' });
      return;
    }
    switch (frame.type) {
      case 'ping':
        if (gateway.answerPings) send(socket, { type: 'pong', timestamp: frame.timestamp });
        return;
      case 'join_chat': {
        joined.get(socket)?.add(frame.chat_id);
        const messages = gateway.log.get(frame.chat_id) ?? [];
        if (frame.after_seq !== undefined) {
          for (const message of messages.slice(frame.after_seq)) send(socket, { type: 'new_message', message });
        }
        send(socket, { type: 'joined', chat_id: frame.chat_id, last_seq: messages.length });
        return;
      }
      case 'typing': {
        // The server's rule in small: only a joined socket's typing goes out, to the others' joined sockets.
        if (joined.get(socket)?.has(frame.chat_id) !== true) {
          send(socket, { type: 'error', code: 'not_a_participant', message: 'you are not a participant of this chat', ref: frame.chat_id });
          return;
        }
        for (const [other, chats] of joined) {
          if (chats.has(frame.chat_id) && authenticated.get(other) !== userId) {
            send(other, { type: 'typing', chat_id: frame.chat_id, user_id: userId, username: userId, name: '' });
          }
        }
        return;
      }
      case 'leave_chat':
        joined.get(socket)?.delete(frame.chat_id);
        send(socket, { type: 'left', chat_id: frame.chat_id });
        return;
      case 'send_message': {
        const key = `${userId}:${frame.client_id ?? ''}`;
        const existing = frame.client_id === undefined ? undefined : sentByClientId.get(key);
        if (existing !== undefined) {
          send(socket, { type: 'new_message', message: existing, client_id: frame.client_id });
          return;
        }
        const message = store(frame.chat_id, frame.content.trim(), userId);
        if (frame.client_id !== undefined) sentByClientId.set(key, message);
        if (!gateway.swallowSends) deliver(message, frame.client_id);
        return;
      }
    }
  };

  const listen = async (): Promise<void> => {
    server = new WebSocketServer({ port, host: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    port = (server.address() as AddressInfo).port;
    server.on('connection', (socket: NodeWebSocket) => {
      gateway.sockets.add(socket);
      joined.set(socket, new Set());
      socket.on('message', (data: Buffer) => handle(socket, JSON.parse(data.toString('utf8')) as ClientFrame));
      socket.on('close', () => {
        gateway.sockets.delete(socket);
        joined.delete(socket);
        authenticated.delete(socket);
      });
    });
  };

  const stop = async (): Promise<void> => {
    gateway.dropAll();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  const gateway: FakeGateway = {
    url: '',
    received: [],
    sockets: new Set(),
    log: new Map(),
    tokens: new Map(),
    answerAuth: true,
    answerPings: true,
    swallowSends: false,
    append: (chatId, content, options = {}) => {
      const message = store(chatId, content, options.authorId ?? 'bob000000000001');
      deliver(message, options.clientId);
      return message;
    },
    push: (frame) => {
      for (const socket of gateway.sockets) send(socket, frame);
    },
    dropAll: () => {
      for (const socket of gateway.sockets) socket.terminate();
    },
    stop,
    restart: listen,
    close: stop,
  };
  await listen();
  gateway.url = `ws://127.0.0.1:${port}`;
  return gateway;
}
