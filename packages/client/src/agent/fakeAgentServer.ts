import type { AddressInfo } from 'node:net';
import type { AgentIdentity, ClientFrame, Mention, ServerFrame, WireMessage } from '../protocol';
import { WebSocketServer } from '../testing/ws';
import type { NodeWebSocket } from '../testing/ws';

/*
 * A tiny server speaking the agents' part of the WebSocket contract (docs/CONTRACTS.md "Agents"),
 * for the SDK's tests: API-key auth, mentions re-sent until acknowledged, whole and streamed
 * replies echoed to the sender, statuses, `not_invoked` for chats listed in `refusedChats`.
 * packages/server/test/agentSdk.test.ts holds the SDK to the real server.
 */

export const testApiKey = `cfk_${'a'.repeat(43)}`;
export const testIdentity: AgentIdentity = { id: 'agent0000000001', username: 'echo', name: 'Echo', dev_room_id: 'room00000000001' };

export interface FakeAgentServer {
  /** The http base URL connectAgent takes; the socket listens at /api/ws. */
  url: string;
  /** Every frame received, in order. */
  received: ClientFrame[];
  /** Sockets currently open. */
  sockets: Set<NodeWebSocket>;
  /** Stored replies, in order. */
  messages: WireMessage[];
  /** Accepted API keys and who they are. */
  keys: Map<string, AgentIdentity>;
  /** Chats where replies are refused with `not_invoked`. */
  refusedChats: Set<string>;
  answerPings: boolean;
  /** Store replies but confirm none (a reply that never gets its new_message). */
  swallowReplies: boolean;
  /** Delivers a mention now to every authenticated socket, and again on every auth until acknowledged. */
  mention(overrides?: Partial<Mention>): Mention;
  /** Kills every socket without a close handshake (a dropped network). */
  dropAll(): void;
  /** Closes every socket with a code (4001: the key was revoked). */
  closeAll(code: number): void;
  close(): Promise<void>;
}

let mentionCount = 0;

export function buildMention(overrides: Partial<Mention> = {}): Mention {
  mentionCount += 1;
  return {
    mention_id: `mention${String(mentionCount).padStart(8, '0')}`,
    reason: 'mention',
    message_id: `message${String(mentionCount).padStart(8, '0')}`,
    chat_id: 'chat00000000001',
    chat_name: 'Team',
    content: '@echo hello',
    author_id: 'user00000000001',
    author_name: 'Alice',
    author_username: 'alice',
    author_is_agent: false,
    created_at: '2026-01-01T00:00:00.000Z',
    context: [],
    hop: 1,
    ...overrides,
  };
}

export async function startFakeAgentServer(): Promise<FakeAgentServer> {
  const authenticated = new Map<NodeWebSocket, AgentIdentity>();
  const unacknowledged = new Map<string, Mention>();
  const streams = new Map<string, { chatId: string; text: string }>();
  const byClientId = new Map<string, WireMessage>();
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', path: '/api/ws' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));

  const send = (socket: NodeWebSocket, frame: ServerFrame): void => socket.send(JSON.stringify(frame));
  const store = (chatId: string, content: string, agent: AgentIdentity): WireMessage => {
    const message: WireMessage = {
      message_id: `reply${String(server.messages.length + 1).padStart(10, '0')}`,
      chat_id: chatId,
      author_id: agent.id,
      author_name: agent.name,
      author_username: agent.username,
      content,
      created_at: '2026-01-01T00:00:01.000Z',
      message_type: 'regular',
      seq: server.messages.length + 1,
      is_agent: true,
    };
    server.messages.push(message);
    return message;
  };
  const refuse = (socket: NodeWebSocket, chatId: string, ref: string): boolean => {
    if (!server.refusedChats.has(chatId)) return false;
    send(socket, { type: 'error', code: 'not_invoked', message: 'This agent was not invoked in this chat.', ref });
    return true;
  };

  const handle = (socket: NodeWebSocket, frame: ClientFrame): void => {
    server.received.push(frame);
    if (frame.type === 'authenticate_with_api_key') {
      const agent = server.keys.get(frame.api_key);
      if (agent === undefined) {
        send(socket, { type: 'authError', message: 'Invalid API key' });
        socket.close(4001, 'authentication failed');
        return;
      }
      authenticated.set(socket, agent);
      send(socket, { type: 'authSuccess', user_id: agent.id, agent });
      for (const mention of unacknowledged.values()) send(socket, { type: 'mention', mention });
      return;
    }
    const agent = authenticated.get(socket);
    if (agent === undefined) {
      send(socket, { type: 'error', code: 'not_authenticated', message: 'Authenticate first' });
      return;
    }
    switch (frame.type) {
      case 'ping':
        if (server.answerPings) send(socket, { type: 'pong', timestamp: frame.timestamp });
        return;
      case 'mention_ack':
        unacknowledged.delete(frame.mention_id);
        return;
      case 'send_message': {
        if (refuse(socket, frame.chat_id, frame.client_id ?? '')) return;
        const existing = frame.client_id === undefined ? undefined : byClientId.get(frame.client_id);
        const message = existing ?? store(frame.chat_id, frame.content.trim(), agent);
        if (frame.client_id !== undefined) byClientId.set(frame.client_id, message);
        if (server.swallowReplies) return;
        send(socket, frame.client_id === undefined ? { type: 'new_message', message } : { type: 'new_message', message, client_id: frame.client_id });
        return;
      }
      case 'stream_start':
        if (refuse(socket, frame.chat_id, frame.stream_id)) return;
        streams.set(frame.stream_id, { chatId: frame.chat_id, text: '' });
        return;
      case 'stream_append': {
        const stream = streams.get(frame.stream_id);
        if (stream === undefined) send(socket, { type: 'error', code: 'unknown_stream', message: 'Unknown stream', ref: frame.stream_id });
        else stream.text += frame.text;
        return;
      }
      case 'stream_end': {
        const stream = streams.get(frame.stream_id);
        streams.delete(frame.stream_id);
        if (stream === undefined) send(socket, { type: 'error', code: 'unknown_stream', message: 'Unknown stream', ref: frame.stream_id });
        else if (stream.text.trim() !== '') send(socket, { type: 'new_message', message: store(stream.chatId, stream.text.trim(), agent), stream_id: frame.stream_id });
        return;
      }
      default:
        return;
    }
  };

  wss.on('connection', (socket: NodeWebSocket) => {
    server.sockets.add(socket);
    socket.on('message', (data: Buffer) => handle(socket, JSON.parse(data.toString('utf8')) as ClientFrame));
    socket.on('close', () => {
      server.sockets.delete(socket);
      authenticated.delete(socket);
    });
  });

  const server: FakeAgentServer = {
    url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    received: [],
    sockets: new Set(),
    messages: [],
    keys: new Map([[testApiKey, testIdentity]]),
    refusedChats: new Set(),
    answerPings: true,
    swallowReplies: false,
    mention: (overrides) => {
      const mention = buildMention(overrides);
      unacknowledged.set(mention.mention_id, mention);
      for (const socket of authenticated.keys()) send(socket, { type: 'mention', mention });
      return mention;
    },
    dropAll: () => {
      for (const socket of server.sockets) socket.terminate();
    },
    closeAll: (code) => {
      for (const socket of server.sockets) socket.close(code, 'closed by the server');
    },
    close: async () => {
      server.dropAll();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
  return server;
}
