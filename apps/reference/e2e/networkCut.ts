/**
 * A TCP proxy in front of the server that a test can "unplug": every open connection is cut and
 * new ones are refused until it is plugged back in. A browser pointed at the proxy sees exactly
 * what a pulled network cable does to HTTP and WebSocket traffic.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface NetworkCut {
  url: string;
  unplug(): void;
  plug(): void;
  close(): Promise<void>;
}

export async function startNetworkCut(target: URL): Promise<NetworkCut> {
  const open = new Set<Socket>();
  let plugged = true;
  const server: Server = createServer((incoming) => {
    if (!plugged) {
      incoming.destroy();
      return;
    }
    const outgoing = connect(Number(target.port), target.hostname);
    for (const socket of [incoming, outgoing]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    incoming.pipe(outgoing).pipe(incoming);
    incoming.on('close', () => outgoing.destroy());
    outgoing.on('close', () => incoming.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    unplug() {
      plugged = false;
      for (const socket of open) socket.destroy();
    },
    plug() {
      plugged = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
