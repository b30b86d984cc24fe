import { optionsFromEnvironment, resolveConfig, type ServerOptions } from './config';
import { buildApp } from './http/app';
import { RefusedOriginWarnings } from './http/refusedOrigins';
import { InProcessBus, type Bus } from './realtime/bus';
import { Gateway } from './realtime/gateway';
import { RedisBus } from './realtime/redisBus';
import { createMailTransport } from './mail/index';
import { ServerMetrics } from './operations/metrics';
import { Readiness } from './operations/readiness';
import { startInboundSmtp } from './mail/inbound';
import { createServiceContext, type ServiceLogger } from './services/context';
import { createServices } from './services/index';
import { MissedMentionMails } from './services/missedMentions';
import { openFileStore } from './services/files/openFileStore';
import { removeStaleIncoming } from './services/files/storage';
import { createRateLimits } from './services/limits/rateLimits';
import { ProviderGateway } from './agents/ai/gateway';
import { createAgentRuntime, createPresence } from './agents/index';
import { openDatabase } from './store/database';
import { tightenDataDir, warnAboutWiderEntries } from './store/privateDataDir';
import { createStore } from './store/store';

/**
 * A running server. `close()` drains: /api/ready answers 503 `draining` at once, and for
 * `drainDelayMs` (default CONFAB_DRAIN_DELAY_SECONDS, else 0) everything else is still served so
 * a load balancer can take the instance out first; then it stops accepting connections, closes
 * the WebSockets and idle keep-alive connections, lets requests in flight finish (for at most
 * `drainTimeoutMs`, default 10 s, then cuts them), and releases the inbound SMTP listener, bus,
 * mail and database.
 */
export interface ConfabServer {
  url: string;
  port: number;
  dataDir: string;
  /** The inbound SMTP listener's port; undefined when it is off or its port was taken (see /api/health). */
  inboundSmtpPort: number | undefined;
  /**
   * The outgoing-mail queue's depth, for operator metrics: mails stored and not sent yet (waiting
   * for the relay, or being tried), across every instance sharing the database (mail/queue.ts).
   */
  mailQueueDepth(): Promise<number>;
  close(options?: { drainTimeoutMs?: number; drainDelayMs?: number }): Promise<void>;
}

/** How long `close()` waits for requests in flight before it cuts their connections. */
const defaultDrainTimeoutMs = 10_000;

/** Unsent bytes a socket may pile up before it counts as a slow consumer and is dropped. */
const maxSocketBufferBytes = 1024 * 1024;
/** Sockets must authenticate within this time. */
const authTimeoutMs = 15_000;

/** Explicit options win; environment variables fill in whatever was left undefined. */
export function mergeOptions(explicit: ServerOptions, fromEnvironment: ServerOptions): ServerOptions {
  const merged: Record<string, unknown> = { ...fromEnvironment };
  for (const [key, value] of Object.entries(explicit)) if (value !== undefined) merged[key] = value;
  return merged as ServerOptions;
}

function listeningUrl(host: string, port: number): string {
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shownHost}:${port}`;
}

/**
 * Starts Confab: opens (and migrates) the database, builds the HTTP app and listens.
 *
 * @example
 * const server = await startServer({ port: 0, host: '127.0.0.1', dataDir: '/tmp/confab' });
 * console.log(server.url); await server.close();
 */
export async function startServer(options: ServerOptions = {}): Promise<ConfabServer> {
  const config = resolveConfig(mergeOptions(options, optionsFromEnvironment([], process.env)));
  // Before the database opens, so its files are private before anything is written to them.
  const widerDataEntries = tightenDataDir(config.dataDir);
  // The app's logger exists only after the app is built; services log through this forwarder.
  let log: ServiceLogger = { info() {}, warn() {}, error() {} };
  const logger: ServiceLogger = {
    info: (object, message) => log.info(object, message),
    warn: (object, message) => log.warn(object, message),
    error: (object, message) => log.error(object, message),
  };
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onWarning: (problem) => logger.warn({ problem }, 'SQLite write-ahead log checkpoint'),
  });
  let url = listeningUrl(config.host, config.port);
  const metrics = new ServerMetrics();
  const mail = createMailTransport({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, logger, now: config.now });
  const store = createStore(database);
  removeStaleIncoming(config.dataDir, config.now());
  const files = await openFileStore({
    dataDir: config.dataDir,
    s3Bucket: config.filesS3Bucket,
    s3ClientOptions: config.filesS3Client,
    onError: (problem) => logger.error({ problem }, 'file storage error'),
  });
  const onBusError = (error: unknown) => logger.error({ error: String(error) }, 'bus error');
  const bus: Bus = config.redisUrl === undefined ? new InProcessBus(onBusError) : new RedisBus(config.redisUrl, onBusError);
  const rateLimits = createRateLimits(
    config,
    (error) => logger.error({ error: String(error) }, 'rate limit store error'),
    (limit) => metrics.rateLimitRefusals.inc({ limit }),
  );
  metrics.knowLimits([...Object.keys(rateLimits.limits), 'wsFramesPerSocket']);
  const presence = createPresence(config, (error) => logger.error({ error: String(error) }, 'presence store error'));
  const context = createServiceContext({ config, store, mail, files, bus, rateLimits, presence, logger, metrics, publicUrl: () => config.publicUrl ?? url });
  const services = createServices(context);
  await services.agents.ensureBuiltIn();
  const agents = createAgentRuntime(services, presence, options.hostedAgents, new ProviderGateway(context));
  // One warning per refused origin, whether the API or the WebSocket refused it.
  const refusedOrigins = new RefusedOriginWarnings(logger);
  const readiness = new Readiness({ config, database, files, agentPools: context.agentPools });
  const app = await buildApp(config, services, agents, refusedOrigins, readiness);
  log = app.log;
  warnAboutWiderEntries(logger, config.dataDir, widerDataEntries);
  const gateway = new Gateway(app.server, services, agents, {
    allowedOrigins: config.allowedOrigins,
    publicUrl: config.publicUrl,
    refusedOrigins,
    limits: { framesPerSecond: config.wsFramesPerSecond, frameBurst: config.wsFramesPerSecond * 2, maxBufferedBytes: maxSocketBufferBytes },
    authTimeoutMs,
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    readiness.close();
    await gateway.close();
    await agents.close();
    await services.presence.close();
    await bus.close();
    await rateLimits.close();
    files.close();
    await database.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  url = listeningUrl(config.host, port);
  // Online on any instance (people presence is shared through Redis when REDIS_URL is set).
  const missedMentions = new MissedMentionMails(
    context,
    { hasOpenSession: (userId) => services.presence.isOnline(userId) },
    { intervalMs: config.missedMentionSweepMs, delayMinutes: config.missedMentionDelayMinutes },
  );
  missedMentions.start();
  // Mail queued while the relay was down, or before a restart, goes out from here on.
  metrics.measureMailQueueWith(() => context.mailQueue.depth());
  context.mailQueue.start();
  const inbound = config.inboundSmtp === undefined ? undefined : await startInboundSmtp(services, config.inboundSmtp, context.inboundMail, logger);
  return {
    url,
    port,
    dataDir: config.dataDir,
    inboundSmtpPort: inbound?.port,
    mailQueueDepth: () => context.mailQueue.depth(),
    async close({ drainTimeoutMs = defaultDrainTimeoutMs, drainDelayMs = config.drainDelayMs } = {}) {
      readiness.startDraining();
      if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs));
      await inbound?.close();
      await missedMentions.close();
      await gateway.close();
      // app.close() stops listening, answers new requests on open connections with 503 and waits
      // for those in flight; past the bound their connections are cut.
      let cut: NodeJS.Timeout | undefined;
      const drained = app.close();
      await Promise.race([
        drained,
        new Promise<void>((resolve) => {
          cut = setTimeout(() => {
            logger.warn({ drainTimeoutMs }, 'requests still in flight at shutdown were cut');
            app.server.closeAllConnections();
            resolve();
          }, drainTimeoutMs);
        }),
      ]);
      clearTimeout(cut);
      await drained;
      readiness.close();
      await agents.close();
      services.drops.close();
      await services.presence.close();
      await bus.close();
      await rateLimits.close();
      await context.mailQueue.close();
      await mail.close();
      files.close();
      await database.close();
    },
  };
}
