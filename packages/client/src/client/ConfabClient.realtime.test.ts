import { BaseAuthStore } from 'pocketbase';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectedClient } from '../testing/connectedClient';
import { startFakeGateway } from '../testing/fakeGateway';
import type { FakeGateway } from '../testing/fakeGateway';
import { startFakeServer } from '../testing/fakeServer';
import type { FakeServer } from '../testing/fakeServer';
import { fakeTimerOptions, settle, waitUntil } from '../testing/waitUntil';
import { WebSocketForTests } from '../testing/ws';
import { ConfabClient } from './ConfabClient';

let server: FakeServer;
let gateway: FakeGateway;

beforeEach(async () => {
  server = await startFakeServer();
  gateway = await startFakeGateway();
  server.configAnswer = { status: 200, body: { websocket_url: gateway.url } };
});

afterEach(async () => {
  vi.useRealTimers();
  await gateway.close();
  await server.close();
});

const authFrames = () => gateway.received.filter((frame) => frame.type === 'authenticate_with_token');

describe('ConfabClient realtime lifecycle', () => {
  it('login connects with the session token (websocket_url from /api/config) and the store follows', async () => {
    const client = await connectedClient(server, gateway);
    expect(client.store.getState()).toMatchObject({ connectionState: 'connected', isConnected: true });
    expect(authFrames()).toEqual([{ type: 'authenticate_with_token', token: client.pb.authStore.token }]);
    client.logout();
  });

  it('logout closes the connection for good', async () => {
    const client = await connectedClient(server, gateway);
    vi.useFakeTimers(fakeTimerOptions);
    client.logout();
    expect(client.realtime.state).toBe('closed');
    expect(client.store.getState()).toMatchObject({ connectionState: 'closed', isConnected: false, isAuthenticated: false });
    await waitUntil(() => gateway.sockets.size === 0, 'the socket to close');
    await vi.advanceTimersByTimeAsync(120_000);
    await settle();
    expect(authFrames()).toHaveLength(1);
  });

  it('initialize() connects a restored session; autoConnect: false leaves it to the app', async () => {
    const authStore = new BaseAuthStore();
    const first = new ConfabClient({ baseUrl: server.url, authStore, realtime: { WebSocket: WebSocketForTests } });
    await first.login('alice', 'correct-horse');
    await waitUntil(() => first.realtime.state === 'connected', 'first connected');
    first.realtime.close();

    const restored = new ConfabClient({ baseUrl: server.url, authStore, realtime: { WebSocket: WebSocketForTests } });
    await restored.initialize();
    await waitUntil(() => restored.store.getState().isConnected, 'restored session connected');

    const manual = new ConfabClient({ baseUrl: server.url, authStore, realtime: { WebSocket: WebSocketForTests, autoConnect: false } });
    await manual.initialize();
    expect(manual.realtime.state).toBe('idle');
    manual.realtime.connect();
    await waitUntil(() => manual.realtime.state === 'connected', 'manual connect');
    restored.realtime.close();
    manual.realtime.close();
  });
});
