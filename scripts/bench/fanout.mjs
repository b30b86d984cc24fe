// The two measured phases over already-joined clients. A message body is
// `bench|<phase>|<n>|<sentAtMs>`; receivers find it with indexOf instead of JSON.parse so the
// load side spends as little CPU as possible per delivery (it shares the machine with the server).
import { performance } from 'node:perf_hooks';

const MARKER = Buffer.from('"content":"bench|');
const QUOTE = 0x22;

/**
 * @param {{ sockets: import('ws').WebSocket[], chatId: string, senders: number, phase: string,
 *   messages: number, window?: number, ratePerSecond?: number, timeoutMs: number }} options
 * Either `window` (send as fast as echoes come back, at most `window` in flight) or
 * `ratePerSecond` (fixed pace).
 */
export function runPhase({ sockets, chatId, senders, phase, messages, window, ratePerSecond, timeoutMs }) {
  const expected = messages * sockets.length;
  const latencies = new Float64Array(expected);
  const errors = new Map();
  let delivered = 0;
  let sent = 0;
  let inFlight = 0;
  let firstSendAt = 0;
  let lastDeliveryAt = 0;

  return new Promise((resolve) => {
    const finish = (complete) => {
      clearTimeout(timer);
      clearInterval(pacer);
      sockets.forEach((socket) => socket.off('message', listeners.get(socket)));
      const sorted = latencies.subarray(0, delivered).sort();
      resolve({ phase, complete, expected, delivered, seconds: (lastDeliveryAt - firstSendAt) / 1000, latencies: sorted, errors: Object.fromEntries(errors) });
    };
    const send = () => {
      const number = sent++;
      const sender = sockets[number % senders];
      const now = performance.now();
      if (number === 0) firstSendAt = now;
      sender.send(JSON.stringify({ type: 'send_message', chat_id: chatId, content: `bench|${phase}|${number}|${now}`, client_id: `${phase}-${number}` }));
    };
    const pump = () => {
      while (window !== undefined && inFlight < window && sent < messages) {
        inFlight += 1;
        send();
      }
    };
    const listeners = new Map();
    sockets.forEach((socket, index) => {
      const listener = (data) => {
        // Buffer.indexOf is native; decoding every frame to a string would cost the load side
        // more than the server spends sending it.
        const start = data.indexOf(MARKER);
        if (start === -1) {
          const text = String(data);
          if (text.includes('"type":"error"')) {
            const code = /"code":"([^"]+)"/.exec(text)?.[1] ?? 'unknown';
            errors.set(code, (errors.get(code) ?? 0) + 1);
          }
          return;
        }
        const bodyStart = start + MARKER.length;
        const [framePhase, number, sentAt] = data.toString('latin1', bodyStart, data.indexOf(QUOTE, bodyStart)).split('|');
        if (framePhase !== phase) return;
        const now = performance.now();
        latencies[delivered++] = now - Number(sentAt);
        lastDeliveryAt = now;
        // The sender's own copy is its acknowledgement: a slot in the window frees up.
        if (window !== undefined && Number(number) % senders === index) {
          inFlight -= 1;
          pump();
        }
        if (delivered === expected) finish(true);
      };
      listeners.set(socket, listener);
      socket.on('message', listener);
    });
    const timer = setTimeout(() => finish(false), timeoutMs);
    let pacer;
    if (window !== undefined) pump();
    else {
      pacer = setInterval(() => {
        if (sent < messages) send();
        else clearInterval(pacer);
      }, 1000 / ratePerSecond);
    }
  });
}
