import { afterEach, describe, expect, it, vi } from 'vitest';
import { NodeWebSocket } from '../testing/ws';
import { connectAgent } from './connectAgent';
import { startFakeAgentServer, testApiKey, testIdentity } from './fakeAgentServer';
import { resolveAgentOptions } from './options';

const key = testApiKey;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('connectAgent options', () => {
  it.each([
    [{ apiKey: '' }, 'apiKey is required'],
    [{ apiKey: '   ' }, 'apiKey is required'],
    [{ apiKey: 'sk-123' }, "apiKey is not an agent API key: it starts with 'cfk_'"],
    [{ apiKey: 'cfk_has spaces' }, 'apiKey is not an agent API key'],
    [{ url: 'ws://localhost:8090' }, "url must be the server's http(s) address, e.g. 'http://localhost:8090' (got \"ws://localhost:8090\")"],
    [{ url: 'localhost:8090' }, "url must be the server's http(s) address"],
    [{ url: '' }, "url must be the server's http(s) address"],
  ])('refuses %o at once with a clear AgentError', (overrides, message) => {
    const make = () => connectAgent({ url: 'http://localhost:8090', apiKey: key, WebSocket: NodeWebSocket, ...overrides });
    expect(make).toThrow(message);
    expect(make).toThrow(expect.objectContaining({ name: 'AgentError', code: 'invalid_options' }));
  });

  it('never puts the key into an error message', () => {
    const secret = 'sk-very-secret-value';
    expect(() => connectAgent({ url: 'http://localhost:8090', apiKey: secret, WebSocket: NodeWebSocket })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(secret) }),
    );
  });

  it('derives ws(s)://host/api/ws from the http(s) base URL and trims the key', () => {
    expect(resolveAgentOptions({ url: 'http://localhost:8090', apiKey: ` ${key}\n`, WebSocket: NodeWebSocket })).toMatchObject({
      socketUrl: 'ws://localhost:8090/api/ws',
      apiKey: key,
    });
    expect(resolveAgentOptions({ url: 'https://confab.example.com/some/page', apiKey: key, WebSocket: NodeWebSocket }).socketUrl).toBe('wss://confab.example.com/api/ws');
  });

  it('has the spec defaults: 30 s pings, 10 s pong timeout, 15 s connect timeout, 1 s doubling to 30 s', () => {
    expect(resolveAgentOptions({ url: 'http://localhost:8090', apiKey: key, WebSocket: NodeWebSocket })).toMatchObject({
      pingIntervalMs: 30_000,
      pongTimeoutMs: 10_000,
      connectTimeoutMs: 15_000,
      replyTimeoutMs: 10_000,
      reconnect: { initialDelayMs: 1_000, maxDelayMs: 30_000 },
    });
    expect(resolveAgentOptions({ url: 'http://localhost:8090', apiKey: key, WebSocket: NodeWebSocket, reconnect: { maxDelayMs: 5_000 } }).reconnect).toEqual({
      initialDelayMs: 1_000,
      maxDelayMs: 5_000,
    });
  });

  it('asks for a WebSocket when there is no global one (Node 20)', () => {
    vi.stubGlobal('WebSocket', undefined);
    expect(() => connectAgent({ url: 'http://localhost:8090', apiKey: key })).toThrow(/No WebSocket available \(Node 20 has none built in\): pass one/);
  });

  it('uses globalThis.WebSocket when there is one (browsers, Node 22+)', async () => {
    vi.stubGlobal('WebSocket', NodeWebSocket);
    const server = await startFakeAgentServer();
    const agent = connectAgent({ url: server.url, apiKey: key });
    try {
      await expect(agent.ready).resolves.toEqual(testIdentity);
    } finally {
      await agent.close();
      await server.close();
    }
  });
});
