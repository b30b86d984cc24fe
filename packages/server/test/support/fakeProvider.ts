import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake provider received: what the SDK sent, key header included. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  /** When it arrived (ms since the epoch), to check how long a retry waited. */
  at: number;
}

/** A local HTTP server on 127.0.0.1 that records each request and answers with the next script. */
export interface FakeProviderServer<Script> {
  url: string;
  requests: RecordedRequest[];
  /** Answers for the next requests, in order; after them, the default. */
  enqueue(...scripts: Script[]): void;
  setDefault(script: Script): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeProvider<Script>(
  initial: Script,
  answer: (script: Script, request: RecordedRequest, response: ServerResponse) => Promise<void>,
): Promise<FakeProviderServer<Script>> {
  const requests: RecordedRequest[] = [];
  const queue: Script[] = [];
  let fallback = initial;
  const server: Server = createServer((incoming: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        body = { unparsed: text };
      }
      const recorded: RecordedRequest = { method: incoming.method ?? '', path: incoming.url ?? '', headers: incoming.headers, body, at: Date.now() };
      requests.push(recorded);
      const script = queue.shift() ?? fallback;
      answer(script, recorded, response).catch(() => response.destroy());
    });
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...scripts) => queue.push(...scripts),
    setDefault(script) {
      fallback = script;
    },
    reset() {
      requests.length = 0;
      queue.length = 0;
      fallback = initial;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** Writes one SSE event: a `data:` line and a blank line. */
export function sseEvent(response: ServerResponse, data: string): void {
  response.write(`data: ${data}\n\n`);
}
