import { deriveConfigFromHost } from '../client/config';
import { constants } from '../constants';
import { apiKeyPrefix } from '../protocol';
import { AgentError, agentErrorCodes } from './errors';
import type { AgentLogger, AgentWebSocketConstructor, ConnectAgentOptions } from './types';

/** connectAgent's options checked and completed with the defaults of docs/PRODUCT.md §9. */
export interface ResolvedAgentOptions {
  socketUrl: string;
  apiKey: string;
  WebSocket: AgentWebSocketConstructor;
  logger: AgentLogger;
  /** null: do not retry. */
  reconnect: { initialDelayMs: number; maxDelayMs: number } | null;
  pingIntervalMs: number;
  pongTimeoutMs: number;
  connectTimeoutMs: number;
  replyTimeoutMs: number;
}

const apiKeyCharacters = /^[A-Za-z0-9_-]+$/;

/** Throws an AgentError (`invalid_options`) naming what is wrong; never echoes the key. */
export function resolveAgentOptions(options: ConnectAgentOptions): ResolvedAgentOptions {
  const apiKey = typeof options.apiKey === 'string' ? options.apiKey.trim() : '';
  if (apiKey === '') fail('apiKey is required: the key shown when the agent was created (cfk_…).');
  if (!apiKey.startsWith(apiKeyPrefix) || !apiKeyCharacters.test(apiKey.slice(apiKeyPrefix.length))) {
    fail(`apiKey is not an agent API key: it starts with '${apiKeyPrefix}' followed by letters, digits, '-' and '_'.`);
  }
  const WebSocket = options.WebSocket ?? (globalThis as { WebSocket?: AgentWebSocketConstructor }).WebSocket;
  if (WebSocket === undefined) {
    fail("No WebSocket available (Node 20 has none built in): pass one, e.g. connectAgent({ …, WebSocket }) with `import { WebSocket } from 'ws'`.");
  }
  const reconnect = options.reconnect ?? true;
  return {
    socketUrl: socketUrlOf(options.url),
    apiKey,
    WebSocket,
    logger: options.logger ?? console,
    reconnect:
      reconnect === false
        ? null
        : {
            initialDelayMs: (reconnect === true ? undefined : reconnect.initialDelayMs) ?? constants.reconnect.initialDelayMs,
            maxDelayMs: (reconnect === true ? undefined : reconnect.maxDelayMs) ?? constants.reconnect.maxDelayMs,
          },
    pingIntervalMs: options.pingIntervalMs ?? constants.heartbeat.pingIntervalMs,
    pongTimeoutMs: options.pongTimeoutMs ?? constants.heartbeat.pongTimeoutMs,
    connectTimeoutMs: options.connectTimeoutMs ?? constants.realtimeConnectTimeoutMs,
    replyTimeoutMs: options.replyTimeoutMs ?? constants.messageSendTimeoutMs,
  };
}

/** `http(s)://host[:port]` → `ws(s)://host[:port]/api/ws`, as ConfabClient derives it. */
function socketUrlOf(url: unknown): string {
  let parsed: URL | null = null;
  try {
    parsed = typeof url === 'string' ? new URL(url.trim()) : null;
  } catch {
    // Reported below.
  }
  if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    fail(`url must be the server's http(s) address, e.g. 'http://localhost:8090' (got ${JSON.stringify(url)}).`);
  }
  return deriveConfigFromHost(parsed.href).websocket_url;
}

function fail(message: string): never {
  throw new AgentError(agentErrorCodes.invalidOptions, message);
}
