/** A local site on 127.0.0.1 that counts what reaches it: the target of the address-guard tests. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingSite {
  port: number;
  /** Request paths in arrival order (`upgrade <path>` for WebSocket upgrades, which are refused). */
  requests: string[];
  /** TCP connections accepted: anything that reached the port, a request or not. */
  connections: number;
  close(): Promise<void>;
}

/** Starts the site; `handle` answers each request (the site is passed for its port). */
export async function startCountingSite(
  handle: (incoming: IncomingMessage, response: ServerResponse, site: CountingSite) => void,
): Promise<CountingSite> {
  const site: CountingSite = { port: 0, requests: [], connections: 0, close: async () => undefined };
  const server: Server = createServer((incoming, response) => {
    site.requests.push(incoming.url ?? '');
    handle(incoming, response, site);
  });
  server.on('connection', () => {
    site.connections += 1;
  });
  server.on('upgrade', (incoming, socket) => {
    site.requests.push(`upgrade ${incoming.url ?? ''}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.port = (server.address() as AddressInfo).port;
  site.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return site;
}
