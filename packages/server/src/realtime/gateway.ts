import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { AgentRuntime } from '../agents/runtime';
import type { RefusedOriginWarnings } from '../http/refusedOrigins';
import { apiKeyPrefix } from '@confab/client/protocol';
import type { Services } from '../services/index';
import type { ServerMetrics } from '../operations/metrics';
import type { UserEvent } from './channels';
import { Connection, type ConnectionLimits } from './connection';
import { FrameHandlers } from './frameHandlers';
import { closeCodes, errorFrame, maxFrameBytes, parseClientFrame, refOf } from './protocol';
import { RoomRegistry } from './rooms';
import { gatewayPath, originAllowed, pathOf } from './upgrade';
import { UserSessions } from './userSessions';

export interface GatewayOptions {
  allowedOrigins: readonly string[];
  publicUrl: string | undefined;
  /** Names a refused origin once in the log. */
  refusedOrigins: RefusedOriginWarnings;
  limits: ConnectionLimits;
  /** A socket that has not authenticated within this time is closed. */
  authTimeoutMs: number;
}

/** ws closes (1009) by itself above this; between maxFrameBytes and this we answer with an error frame first. */
const hardPayloadLimitBytes = 1024 * 1024;
const connectionKey = Symbol('confabConnection');
type GatewaySocket = WebSocket & { [connectionKey]?: Connection };

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((total, part) => total + part.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return data instanceof ArrayBuffer ? Buffer.from(data).toString('utf8') : data.toString('utf8');
}

/**
 * The WebSocket gateway at /api/ws on the Fastify HTTP server. Socket listeners are shared
 * functions (the connection hangs off the socket), so an idle socket costs little beyond ws itself.
 */
export class Gateway {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: hardPayloadLimitBytes, clientTracking: false });
  private readonly sockets = new Set<GatewaySocket>();
  private readonly onError: (error: unknown) => void;
  private readonly metrics: ServerMetrics;
  private readonly rooms: RoomRegistry;
  private readonly sessions: UserSessions;
  private readonly handlers: FrameHandlers;
  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (pathOf(request) !== gatewayPath) return void socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
    if (!originAllowed(request, this.options.allowedOrigins, this.options.publicUrl)) {
      this.options.refusedOrigins.note(request.headers.origin ?? '');
      return void socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
    }
    this.server.handleUpgrade(request, socket, head, (webSocket) => this.accept(webSocket, apiKeyFromHeader(request)));
  };

  constructor(
    private readonly httpServer: Server,
    services: Services,
    agents: AgentRuntime,
    private readonly options: GatewayOptions,
  ) {
    const logger = services.context.logger;
    const onError = (error: unknown) => logger.error({ error: String(error) }, 'realtime error');
    this.onError = onError;
    const metrics = services.context.metrics;
    this.metrics = metrics;
    this.rooms = new RoomRegistry({
      bus: services.context.bus,
      load: (chatId, afterSeq, limit) => services.messaging.framesAfter(chatId, afterSeq, limit),
      lastSeq: (chatId) => services.messaging.lastSeq(chatId),
      onError,
      onFannedOut: (latencyMs) => metrics.fanOutLatency.observe(latencyMs / 1000),
    });
    metrics.countWebSocketsWith(() => this.sockets.size);
    this.sessions = new UserSessions(services.context.bus, (connections, event) => this.onUserEvent(connections, event));
    this.handlers = new FrameHandlers(services, agents, this.rooms, this.sessions, onError);
    const gateway = this;
    this.onSocketMessage = function (data, isBinary) {
      const connection = this[connectionKey];
      if (connection !== undefined) gateway.receive(connection, data, isBinary);
    };
    this.onSocketClose = function () {
      const connection = this[connectionKey];
      if (connection !== undefined) gateway.release(this, connection);
    };
    httpServer.on('upgrade', this.onUpgrade);
  }

  /** Socket listeners shared by every socket of this gateway (ws calls them with the socket as `this`). */
  private readonly onSocketMessage: (this: GatewaySocket, data: RawData, isBinary: boolean) => void;
  private readonly onSocketClose: (this: GatewaySocket) => void;

  private accept(webSocket: WebSocket, apiKey: string | undefined): void {
    const socket = webSocket as GatewaySocket;
    const connection = new Connection(socket, this.options.limits);
    socket[connectionKey] = connection;
    this.sockets.add(socket);
    socket.on('message', this.onSocketMessage);
    socket.on('close', this.onSocketClose);
    socket.on('error', ignoreSocketError);
    connection.authTimer = setTimeout(() => {
      if (connection.userId === undefined) socket.close(closeCodes.authenticationFailed, 'Authentication timeout');
    }, this.options.authTimeoutMs);
    // An agent may authenticate with its key in the upgrade's Authorization header instead of a frame.
    if (apiKey !== undefined) void this.handlers.handle(connection, { type: 'authenticate_with_api_key', api_key: apiKey });
  }

  private receive(connection: Connection, data: RawData, isBinary: boolean): void {
    if (byteLength(data) > maxFrameBytes) {
      connection.send(errorFrame('frame_too_large', `frames are limited to ${maxFrameBytes} bytes`));
      connection.socket.close(closeCodes.messageTooBig, 'Frame too large');
      return;
    }
    if (isBinary) {
      connection.send(errorFrame('invalid_frame', 'binary frames are not supported; send JSON text frames'));
      return;
    }
    const parsed = parseClientFrame(textOf(data));
    // Counted whether or not it parses; refused with the ref of the frame it refuses, so a
    // client fails that very message at once instead of waiting for a timeout.
    if (!connection.allowFrame(Date.now())) {
      this.metrics.rateLimitRefusals.inc({ limit: 'wsFramesPerSocket' });
      connection.send(errorFrame('rate_limited', 'too many frames; slow down', parsed.ok ? refOf(parsed.frame) : parsed.ref));
      return;
    }
    if (!parsed.ok) {
      connection.send(errorFrame('invalid_frame', parsed.message, parsed.ref));
      return;
    }
    void this.handlers.handle(connection, parsed.frame);
  }

  private release(socket: GatewaySocket, connection: Connection): void {
    clearTimeout(connection.authTimer);
    this.sockets.delete(socket);
    for (const chatId of connection.joined?.keys() ?? []) this.rooms.leave(chatId, connection);
    if (connection.userId !== undefined) {
      this.sessions.remove(connection.userId, connection);
      this.handlers.presence.closed(connection, connection.userId);
    }
    if (connection.agentId !== undefined) {
      const agentId = connection.agentId;
      this.handlers.agentTransport.disconnected(agentId, connection).catch((error: unknown) => this.onError(error));
    }
  }

  private onUserEvent(connections: ReadonlySet<Connection>, event: UserEvent): void {
    if (event.kind === 'revoke') {
      for (const connection of [...connections]) connection.socket.close(closeCodes.authenticationFailed, 'Token revoked');
      return;
    }
    if (event.kind === 'frame') {
      const frame = Buffer.from(event.frame);
      for (const connection of connections) connection.send(frame);
      return;
    }
    const data = Buffer.from(event.frame);
    for (const connection of connections) {
      if (event.detach && connection.leave(event.chat_id)) this.rooms.leave(event.chat_id, connection);
      connection.send(data);
    }
  }

  /** Drops every socket and subscription; the HTTP server is closed by its owner. */
  async close(): Promise<void> {
    this.httpServer.off('upgrade', this.onUpgrade);
    for (const socket of this.sockets) socket.terminate();
    this.sockets.clear();
    this.rooms.closeAll();
    this.sessions.closeAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** `Authorization: Bearer cfk_…` on the upgrade request: an agent's key. */
function apiKeyFromHeader(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization?.trim() ?? '';
  const key = header.replace(/^bearer\s+/i, '');
  return key.startsWith(apiKeyPrefix) ? key : undefined;
}

/** Socket errors (resets, protocol violations) end in 'close', which cleans up. */
function ignoreSocketError(): void {}
