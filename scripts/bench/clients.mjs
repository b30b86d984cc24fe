// The load side: N WebSocket clients that authenticate and join one chat per the CONTRACTS
// protocol, identically for both servers. Runs in the parent process, one clock for send and
// receive timestamps (performance.now()).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
const { WebSocket } = require('ws');

const CONNECT_TIMEOUT_MS = 15_000;

/**
 * Opens `count` clients, `concurrency` at a time; each is authenticated and joined when this resolves.
 * @param {{ url: string, tokens: string[], chatId: string, count: number, concurrency?: number }} options
 * @returns {Promise<import('ws').WebSocket[]>}
 */
export async function connectClients({ url, tokens, chatId, count, concurrency = 50 }) {
  const sockets = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      sockets[index] = await connectOne(url, tokens[index % tokens.length], chatId);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return sockets;
}

function connectOne(url, token, chatId) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, {
      perMessageDeflate: false,
      // The load generator trusts the servers' UTF-8; validating it would only slow the load side.
      skipUTF8Validation: true,
    });
    const timer = setTimeout(() => fail(new Error('connect/auth/join timed out')), CONNECT_TIMEOUT_MS);
    const fail = (error) => {
      clearTimeout(timer);
      socket.terminate();
      reject(error);
    };
    socket.on('error', fail);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'authenticate_with_token', token })));
    socket.on('message', function handshake(data) {
      const frame = JSON.parse(String(data));
      if (frame.type === 'authSuccess') socket.send(JSON.stringify({ type: 'join_chat', chat_id: chatId }));
      else if (frame.type === 'joined') {
        clearTimeout(timer);
        socket.off('message', handshake);
        socket.off('error', fail);
        socket.on('error', () => {});
        resolve(socket);
      } else if (frame.type === 'authError' || frame.type === 'error') fail(new Error(`handshake refused: ${String(data)}`));
    });
  });
}

/** Closes every client politely, then terminates whatever has not closed after `graceMs`. */
export async function closeClients(sockets, graceMs = 3_000) {
  const closed = sockets.filter(Boolean).map((socket) => new Promise((resolve) => {
    if (socket.readyState === WebSocket.CLOSED) return resolve();
    socket.once('close', resolve);
    socket.close();
  }));
  const timer = setTimeout(() => sockets.forEach((socket) => socket?.terminate()), graceMs);
  await Promise.all(closed);
  clearTimeout(timer);
}
