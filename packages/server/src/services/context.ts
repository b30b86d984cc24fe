import type { ServerConfig } from '../config';
import { MailQueue } from '../mail/queue';
import type { MailTransport } from '../mail/transport';
import type { Bus } from '../realtime/bus';
import type { UserRow } from '../store/repositories/users';
import type { Store } from '../store/store';
import type { ServerMetrics } from '../operations/metrics';
import { ContentCipher } from './contentCipher';
import type { FileStore } from './files/fileStore';
import type { PresenceReader } from './agents';
import type { RateLimits } from './limits/rateLimits';

export interface ServiceLogger {
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

/** Everything services share: configuration, the store, ciphers, limits and outgoing mail. */
export interface ServiceContext {
  config: ServerConfig;
  store: Store;
  messageCipher: ContentCipher;
  providerKeyCipher: ContentCipher;
  /** Per-person, per-address and per-chat limits (shared through Redis when REDIS_URL is set). */
  rateLimits: RateLimits;
  /** Which developer agents are connected, on any instance (the agent runtime keeps it). */
  presence: PresenceReader;
  /**
   * Outgoing mail: every mail is queued in the database and sent through the configured transport,
   * retried while the relay is down (mail/queue.ts). Nothing sends through the transport directly.
   */
  mailQueue: MailQueue;
  /** The bytes of chat files: the data dir's disk, or a bucket shared by the instances. */
  files: FileStore;
  /** Realtime fan-out: in-process, or Redis across instances. */
  bus: Bus;
  logger: ServiceLogger;
  /** The public base URL for mailed links; filled in once the server listens. */
  publicUrl: () => string;
  /** What the inbound SMTP listener is doing, for /api/health; the server fills it in when it starts. */
  inboundMail: InboundMailStatus;
  /** Hosted agents' job pools by agent username (the agent runtime registers them), for /api/health. */
  agentPools: Map<string, () => AgentPoolStatus>;
  /** This instance's Prometheus metrics (operations/metrics.ts), served at /metrics when it is on. */
  metrics: ServerMetrics;
}

/** A hosted agent's pool of jobs: how many run and wait, and whether a new one would have to wait. */
export interface AgentPoolStatus {
  running: number;
  queued: number;
  saturated: boolean;
}

/** `listening` on `address`, `off` by configuration, or `unavailable` with the reason (a taken port). */
export interface InboundMailStatus {
  state: 'off' | 'listening' | 'unavailable';
  address?: string;
  problem?: string;
}

/** Who is calling: a signed-in user, or a guest. */
export interface RequestAuth {
  user: UserRow | undefined;
  ip: string;
}

export function createServiceContext(options: {
  config: ServerConfig;
  store: Store;
  mail: MailTransport;
  files: FileStore;
  bus: Bus;
  rateLimits: RateLimits;
  presence: PresenceReader;
  logger: ServiceLogger;
  publicUrl: () => string;
  metrics: ServerMetrics;
}): ServiceContext {
  const { mail, ...shared } = options;
  const config = options.config;
  return {
    ...shared,
    mailQueue: new MailQueue(options.store.database, mail, new ContentCipher(config.secret, 'mail-queue'), options.logger, config.now, config.mailDomain, {
      retryBaseMs: config.mailRetryBaseMs,
      retryMaxMs: config.mailRetryMaxMs,
      retryForMs: config.mailRetryForMs,
      pollMs: config.mailQueuePollMs,
    }),
    inboundMail: { state: 'off' },
    agentPools: new Map(),
    messageCipher: new ContentCipher(options.config.secret, 'message-content'),
    providerKeyCipher: new ContentCipher(options.config.secret, 'provider-api-keys'),
  };
}
