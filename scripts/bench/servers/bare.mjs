// The baseline: a bare `ws` server doing the same job as the gateway without anything else
// (no auth check, no persistence, no encryption): it accepts the same frames and broadcasts the
// same new_message shape, serialised once per message, to every socket joined to the chat.
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { serveIpc } from './ipc.mjs';

// `ws` is a dependency of @confab/server; the bench uses that very copy for a fair comparison.
const require = createRequire(new URL('../../../packages/server/package.json', import.meta.url));
const { WebSocketServer } = require('ws');

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 64 * 1024 });
/** @type {Map<string, Set<import('ws').WebSocket>>} */
const rooms = new Map();
const sequences = new Map();

server.on('connection', (socket) => {
  let userId;
  const joined = new Set();
  socket.on('message', (data) => {
    let frame;
    try {
      frame = JSON.parse(String(data));
    } catch {
      socket.send(JSON.stringify({ type: 'error', code: 'invalid_frame', message: 'Invalid JSON' }));
      return;
    }
    if (frame.type === 'authenticate_with_token') {
      userId = String(frame.token).slice(0, 15);
      socket.send(JSON.stringify({ type: 'authSuccess', user_id: userId }));
    } else if (frame.type === 'join_chat') {
      const room = rooms.get(frame.chat_id) ?? new Set();
      rooms.set(frame.chat_id, room.add(socket));
      joined.add(frame.chat_id);
      socket.send(JSON.stringify({ type: 'joined', chat_id: frame.chat_id, last_seq: sequences.get(frame.chat_id) ?? 0 }));
    } else if (frame.type === 'send_message') {
      const seq = (sequences.get(frame.chat_id) ?? 0) + 1;
      sequences.set(frame.chat_id, seq);
      const message = {
        message_id: randomUUID().replaceAll('-', '').slice(0, 15), chat_id: frame.chat_id, author_id: userId,
        author_name: 'Bench User', author_username: 'bench_user', content: String(frame.content).trim(),
        created_at: new Date().toISOString(), message_type: 'regular', seq, is_agent: false,
      };
      const payload = JSON.stringify({ type: 'new_message', message, client_id: frame.client_id });
      for (const member of rooms.get(frame.chat_id) ?? []) member.send(payload);
    } else if (frame.type === 'ping') {
      socket.send(JSON.stringify({ type: 'pong', timestamp: frame.timestamp }));
    }
  });
  socket.on('close', () => {
    for (const chatId of joined) rooms.get(chatId)?.delete(socket);
  });
});

server.on('listening', () => {
  const { port } = server.address();
  serveIpc({ url: `ws://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) });
});
