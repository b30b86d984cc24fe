import { afterAll, beforeAll } from 'vitest';
import type { DatabaseVariant } from './databases';
import type { RegisteredUser } from './fixtures';
import { startTestServer, type TestServer } from './testServer';
import { authenticatedSocket, type TestSocket } from './wsClient';

/**
 * A real server for one describe block (started before its tests, on the variant's database) and
 * the signed-in sockets its tests open, all closed after them.
 *
 * @example
 * const world = serverWithSockets(variant);
 * it('…', async () => { const socket = await world.socketOf(ann); await rawRequest(world.server.url, …); });
 */
export function serverWithSockets(variant: DatabaseVariant): {
  readonly server: TestServer;
  socketOf: (user: RegisteredUser) => Promise<TestSocket>;
  closeAfterAll: (socket: TestSocket) => TestSocket;
} {
  let started: TestServer | undefined;
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    started = await startTestServer(variant);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await started?.close();
  });
  const server = (): TestServer => {
    if (started === undefined) throw new Error('the test server starts in beforeAll: use world.server inside a test');
    return started;
  };
  /** A socket opened some other way (an agent's), closed with the rest. */
  const closeAfterAll = (socket: TestSocket): TestSocket => {
    sockets.push(socket);
    return socket;
  };
  return {
    get server() {
      return server();
    },
    socketOf: async (user) => closeAfterAll(await authenticatedSocket(server().url, user.pb.authStore.token)),
    closeAfterAll,
  };
}
