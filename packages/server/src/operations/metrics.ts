import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Who wrote a stored message, as the `author` label says it: a few fixed words, never an id. */
export type AuthorKind = 'person' | 'agent';
/** Which kind of agent: run in the server (@data, personas…) or a developer's over the SDK. */
export type AgentKind = 'hosted' | 'developer';

/** The user types of agents, by the label they get. */
export function agentKindOf(userType: string): AgentKind | undefined {
  if (userType === 'confab-agent') return 'hosted';
  if (userType === 'developer-agent') return 'developer';
  return undefined;
}

/** From 0.5 ms to 2.5 s: a fan-out on one machine is well under a millisecond, across Redis a few. */
const fanOutBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** From 5 ms to 10 s: most API answers are quick; uploads and agent calls are the long tail. */
const httpBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The metrics of one server instance (docs/OPERATIONS.md, Metrics), in a registry of its own:
 * several servers in one process (tests, embedders) never add to each other's counts, and
 * prom-client's global registry is never touched. Counting is always on (a counter is an
 * addition); the process metrics, which start timers and observers, only when /metrics is.
 */
export class ServerMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'confab_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpRequestDuration = new Histogram({
    name: 'confab_http_request_duration_seconds',
    help: 'Time from a request received to its answer sent, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: httpBuckets,
    registers: [this.registry],
  });

  readonly messagesSent = new Counter({
    name: 'confab_messages_sent_total',
    help: 'Messages stored (retries of the same client_id not counted), by author: person or agent.',
    labelNames: ['author'] as const,
    registers: [this.registry],
  });

  readonly fanOutLatency = new Histogram({
    name: 'confab_fanout_latency_seconds',
    help: 'From a message stored to its frame written to the sockets of one instance joined to its chat.',
    buckets: fanOutBuckets,
    registers: [this.registry],
  });

  readonly agentMentionsDelivered = new Counter({
    name: 'confab_agent_mentions_delivered_total',
    help: 'Mentions handed to agents (a hosted agent in-process, a developer agent over its socket), by agent kind.',
    labelNames: ['agent'] as const,
    registers: [this.registry],
  });

  readonly agentReplies = new Counter({
    name: 'confab_agent_replies_total',
    help: 'Messages agents stored in chats, by agent kind.',
    labelNames: ['agent'] as const,
    registers: [this.registry],
  });

  readonly aiTokens = new Counter({
    name: 'confab_ai_tokens_total',
    help: 'Tokens hosted agents used in AI provider calls, by provider and direction (input or output).',
    labelNames: ['provider', 'direction'] as const,
    registers: [this.registry],
  });

  readonly rateLimitRefusals = new Counter({
    name: 'confab_rate_limit_refusals_total',
    help: 'Requests refused (or left out) by a rate limit, by the limit name.',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  private webSocketSource: () => number = () => 0;
  private mailQueueSource: () => number | Promise<number> = () => 0;

  constructor() {
    const metrics = this;
    new Gauge({
      name: 'confab_websocket_connections',
      help: 'Open WebSocket connections on this instance (people and agents, signed in or not yet).',
      registers: [this.registry],
      collect() {
        this.set(metrics.webSocketSource());
      },
    });
    new Gauge({
      name: 'confab_mail_queue_depth',
      help: 'Outgoing mails accepted for sending and not yet handed over (to the relay, or the outbox folder).',
      registers: [this.registry],
      async collect() {
        this.set(await metrics.mailQueueSource());
      },
    });
    // Every series that can appear starts at 0, so a rate over the first event is not lost.
    for (const author of ['person', 'agent'] satisfies AuthorKind[]) this.messagesSent.inc({ author }, 0);
    for (const agent of ['hosted', 'developer'] satisfies AgentKind[]) {
      this.agentMentionsDelivered.inc({ agent }, 0);
      this.agentReplies.inc({ agent }, 0);
    }
    for (const provider of ['openai', 'gemini']) for (const direction of ['input', 'output']) this.aiTokens.inc({ provider, direction }, 0);
  }

  /** Starts the refusal count of each named limit at 0 (others appear with their first refusal). */
  knowLimits(names: Iterable<string>): void {
    for (const limit of names) this.rateLimitRefusals.inc({ limit }, 0);
  }

  /** The gateway tells how many sockets are open; read at each scrape. */
  countWebSocketsWith(source: () => number): void {
    this.webSocketSource = source;
  }

  /** Where the mail queue's depth is read at each scrape: the durable outgoing queue's (mail/queue.ts). */
  measureMailQueueWith(source: () => number | Promise<number>): void {
    this.mailQueueSource = source;
  }

  /** Node's process metrics (event-loop lag, heap, GC, CPU) under their usual names; once, when /metrics is on. */
  collectProcessMetrics(): void {
    collectDefaultMetrics({ register: this.registry });
  }

  /** The Prometheus text exposition of everything above. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
