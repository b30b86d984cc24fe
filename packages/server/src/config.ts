import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { constants, isImageExtension, uploadExtensions } from '@confab/client/rules';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import ipaddr from 'ipaddr.js';
import type { HostedAgentHandler } from './agents/transports/inProcess';
import { parseBucket } from './services/files/fileStore';
import { logFormats, logLevels, type LogFormat, type LogLevel } from './http/logging';

/** Options a caller of `startServer` may give; every field is optional (see docs/CONTRACTS.md). */
export interface ServerOptions {
  /** 0 = any free port. Default 8090 (env PORT, flag --port). */
  port?: number;
  /** Default '0.0.0.0'. */
  host?: string;
  /** Default ./data (env CONFAB_DATA_DIR, flag --data-dir). */
  dataDir?: string;
  /** postgres://… selects PostgreSQL; absent selects SQLite at <dataDir>/confab.db. */
  databaseUrl?: string;
  redisUrl?: string;
  smtpUrl?: string;
  /** Domain of chat and user inbox addresses. Default 'confab.localhost'. */
  mailDomain?: string;
  /** Server secret; default: generated once and kept in <dataDir>/secret. */
  secret?: string;
  /** Built reference app served at / with SPA fallback; '' or undefined serves none (env CONFAB_WEB_DIR, flag --web-dir). */
  webDir?: string;
  /** Base of mailed links; default: the listening URL. */
  publicUrl?: string;
  logger?: boolean;
  /**
   * Where the log lines go when `logger` is true; default stdout. Lets an embedding process or a
   * test read them.
   */
  logStream?: NodeJS.WritableStream;
  /** Lowest level logged (env CONFAB_LOG_LEVEL, flag --log-level). Default 'info': one line per request. */
  logLevel?: string;
  /**
   * 'json' (one JSON object a line) or 'pretty' (readable lines) (env CONFAB_LOG_FORMAT, flag
   * --log-format). Default: 'pretty' when the log stream is a terminal, else 'json'.
   */
  logFormat?: string;
  /**
   * Trust X-Forwarded-For/-Proto from a reverse proxy (env CONFAB_TRUST_PROXY=1), so per-IP
   * login limits and derived URLs see the real client. Default false.
   */
  trustProxy?: boolean;
  /**
   * Origins (e.g. 'https://app.example.com') whose pages may open the WebSocket besides the
   * server's own (env CONFAB_ALLOWED_ORIGINS, comma separated). Requests without Origin are allowed.
   */
  allowedOrigins?: string[];
  /** Sustained WebSocket frames per second per socket (env CONFAB_WS_FRAMES_PER_SECOND). Default 20; burst 2×. */
  wsFramesPerSecond?: number;
  /**
   * Temporary accounts one IP address may create through share links per hour (env
   * CONFAB_TEMPORARY_ACCOUNTS_PER_IP_PER_HOUR). Default 100; a share link's max_uses bounds each link.
   */
  temporaryAccountsPerIpPerHour?: number;
  /**
   * Megabytes one user may upload per hour (env CONFAB_UPLOAD_MB_PER_USER_PER_HOUR). Default 2048;
   * past it uploads answer 429 until the hour is over. A bound on how fast a disk can be filled.
   */
  uploadMegabytesPerUserPerHour?: number;
  /**
   * Image types added to the upload allow-list (env CONFAB_UPLOAD_EXTENSIONS, comma separated,
   * e.g. 'png,jpg,jpeg,gif,webp'). Default none. Only the raster types of `constants.upload.imageExtensions`
   * may be added (others stop the start with an error; SVG never); extensions already allowed are ignored.
   */
  uploadExtensions?: string[];
  /**
   * A request whose body makes no progress for this long loses its connection, and a partial
   * upload is removed (env CONFAB_BODY_TIMEOUT_SECONDS). Default 30 000 ms. Slow but steady bodies
   * are not cut: only a silence this long is.
   */
  bodyTimeoutMs?: number;
  /** Accounts one IP address may register per hour (env CONFAB_SIGNUPS_PER_IP_PER_HOUR). Default 30; 429 past it. */
  signupsPerIpPerHour?: number;
  /**
   * Messages one user may post per second, over the WebSocket and HTTP together (env
   * CONFAB_MESSAGES_PER_USER_PER_SECOND). Default 20, bursts of twice that; 429 or a `rate_limited` frame past it.
   */
  messagesPerUserPerSecond?: number;
  /** Invitations (by e-mail or username) one user may send per hour (env CONFAB_INVITATIONS_PER_USER_PER_HOUR). Default 20. */
  invitationsPerUserPerHour?: number;
  /** Invitations into one chat per hour, whoever sends them (env CONFAB_INVITATIONS_PER_CHAT_PER_HOUR). Default 40. */
  invitationsPerChatPerHour?: number;
  /** Developer agents one person may have (env CONFAB_AGENTS_PER_USER). Default 25; 400 past it. */
  agentsPerUser?: number;
  /** Developer agents one person may create per hour (env CONFAB_AGENTS_PER_USER_PER_HOUR). Default 10; 429 past it. */
  agentsPerUserPerHour?: number;
  /** How long a mention of an offline developer agent waits for it to connect (env CONFAB_AGENT_QUEUE_MINUTES). Default 10. */
  agentQueueMinutes?: number;
  /**
   * @data jobs running at once on this server, in one chat and for one person (env
   * CONFAB_DATA_JOBS, CONFAB_DATA_JOBS_PER_CHAT, CONFAB_DATA_JOBS_PER_USER). Defaults 2, 1 and 1.
   * Each job is a process of its own; a few more may wait, and past that @data answers that it is busy.
   */
  dataJobs?: number;
  dataJobsPerChat?: number;
  dataJobsPerUser?: number;
  /** One whole @data job, its wait in the queue included; then its process is killed (env CONFAB_DATA_JOB_SECONDS). Default 60 s. */
  dataJobTimeoutMs?: number;
  /** DuckDB's memory limit in one @data job; the job's process may use twice this for its JavaScript heap (env CONFAB_DATA_MEMORY_MB). Default 256. */
  dataMemoryMegabytes?: number;
  /** What one @data job may spill to disk, in a folder under the data dir removed after the job (env CONFAB_DATA_SPILL_MB); 0: nothing. Default 512. */
  dataSpillMegabytes?: number;
  /** Requests to hosted agents (@data, @deep, @browse, personas…) one person may make per hour (env CONFAB_AGENT_CALLS_PER_USER_PER_HOUR). Default 100. */
  agentCallsPerUserPerHour?: number;
  /** Requests to hosted agents from one chat per hour, whoever asks (env CONFAB_AGENT_CALLS_PER_CHAT_PER_HOUR). Default 300. */
  agentCallsPerChatPerHour?: number;
  /** OpenAI-compatible base URL with `/v1` (env CONFAB_OPENAI_BASE_URL), e.g. `http://localhost:11434/v1` for Ollama. Default OpenAI's. */
  openaiBaseUrl?: string;
  /** The Chat Completions model hosted agents use (env CONFAB_OPENAI_MODEL). Default `gpt-4.1-mini`. */
  openaiModel?: string;
  /** The server-wide OpenAI key, used when the invoking person has none (env CONFAB_OPENAI_API_KEY). Any placeholder for a keyless local server. */
  openaiApiKey?: string;
  /** Gemini API host without `/v1beta` (env CONFAB_GEMINI_BASE_URL). Default Google's. */
  geminiBaseUrl?: string;
  /** The Gemini model hosted agents use (env CONFAB_GEMINI_MODEL). Default `gemini-2.5-flash`. */
  geminiModel?: string;
  /** The server-wide Gemini key, used when the invoking person has none and no server OpenAI key is set (env CONFAB_GEMINI_API_KEY). */
  geminiApiKey?: string;
  /** How long one AI answer (all its tool rounds) may take (env CONFAB_AI_TIMEOUT_SECONDS). Default 120 s. */
  aiTimeoutMs?: number;
  /**
   * How long an AI provider may send nothing (before its answer starts, or between two chunks of
   * it) before the call is given up as timed out (env CONFAB_AI_IDLE_SECONDS). Default 30 s.
   */
  aiIdleTimeoutMs?: number;
  /**
   * `host:port` pairs the guarded fetcher (@browse, @deep, the image proxy) may reach although
   * their address is not public, e.g. `wiki.internal:443` (env CONFAB_FETCH_ALLOW_HOSTS, commas).
   * Default none: loopback, private, link-local and other special addresses are refused.
   */
  fetchAllowHosts?: string[];
  /** A SearXNG instance whose JSON API @deep searches (env CONFAB_SEARXNG_URL), e.g. `http://localhost:8888`; `json` must be in its `search.formats`. */
  searxngUrl?: string;
  /** A Brave Search API key @deep searches with (env CONFAB_BRAVE_API_KEY). */
  braveApiKey?: string;
  /** Brave Search API base (env CONFAB_BRAVE_BASE_URL). Default `https://api.search.brave.com`; for tests and proxies. */
  braveBaseUrl?: string;
  /**
   * A Chromium binary (env CONFAB_BROWSE_CHROMIUM), e.g. `/usr/bin/chromium`: @browse then renders
   * pages headless, so pages that need JavaScript are read; every request of the page goes through
   * the fetcher's address guard. Default none: pages are read as fetched, without running scripts.
   */
  browseChromium?: string;
  /**
   * In-process handlers of hosted agents by username (the in-process transport of the agent
   * runtime); for embedding and tests. The built-in hosted agents register their own.
   */
  hostedAgents?: Record<string, HostedAgentHandler>;
  /**
   * The inbound SMTP listener, `host:port` or `off` (env CONFAB_INBOUND_SMTP). Default
   * `127.0.0.1:2525`; port 0 takes any free port. Mail to a chat's or a user's inbox address
   * becomes an `email` message (see mail/inbound.ts).
   */
  inboundSmtp?: string;
  /**
   * Mails one connecting address (the SMTP client's IP; an IPv6 /64) may start per hour, whatever
   * senders and recipients they name (env CONFAB_INBOUND_MAILS_PER_ADDRESS_PER_HOUR). Default 200;
   * 451 past it. Behind a relay on this host every mail comes from the relay's address.
   */
  inboundMailsPerAddressPerHour?: number;
  /** Mails one chat or inbox address may receive per hour (env CONFAB_INBOUND_MAILS_PER_RECIPIENT_PER_HOUR). Default 30; 451 past it. */
  inboundMailsPerRecipientPerHour?: number;
  /** Recipients one mail may name (env CONFAB_INBOUND_RECIPIENTS_PER_MAIL). Default 10; 452 'too many recipients' for the rest. */
  inboundRecipientsPerMail?: number;
  /**
   * How long a mention or reply of a person stays unread, while they have no open session, before
   * it is mailed to them (env CONFAB_MISSED_MENTION_DELAY_MINUTES). Default 10.
   */
  missedMentionDelayMinutes?: number;
  /** How often the missed-mention sweep runs (env CONFAB_MISSED_MENTION_SWEEP_SECONDS). Default 60 000 ms. */
  missedMentionSweepMs?: number;
  /**
   * How long a socket's presence outlives its instance when the instance dies without closing it
   * (env CONFAB_PRESENCE_TTL_SECONDS, default 45): then the others are told it went offline.
   */
  presenceTtlMs?: number;
  /**
   * Outgoing mail waits in the database's mail queue while the relay cannot take it
   * (docs/OPERATIONS.md, Outbound mail): the first retry after this delay (env
   * CONFAB_MAIL_RETRY_BASE_SECONDS), each next one twice as long. Default 30 000 ms.
   */
  mailRetryBaseMs?: number;
  /** The longest delay between two attempts of a queued mail (env CONFAB_MAIL_RETRY_MAX_SECONDS). Default 1 hour. */
  mailRetryMaxMs?: number;
  /** How long a queued mail is retried before it is given up (env CONFAB_MAIL_RETRY_HOURS). Default 1 day. */
  mailRetryForMs?: number;
  /** How often each instance looks for queued mail that is due (env CONFAB_MAIL_QUEUE_POLL_SECONDS). Default 5 000 ms. */
  mailQueuePollMs?: number;
  /**
   * Keep chat files in this S3-compatible bucket, with an optional key prefix, instead of the
   * data dir (env CONFAB_FILES_S3_BUCKET), e.g. `my-bucket` or `my-bucket/confab/`. The client
   * takes the SDK's standard configuration: AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
   * (or any other credential source), AWS_ENDPOINT_URL_S3 for MinIO, R2, Ceph and the like.
   * Default none: files live in `<dataDir>/files`.
   */
  filesS3Bucket?: string;
  /** S3 client options over the SDK's standard configuration (endpoint, region, credentials), for embedders and tests. */
  filesS3Client?: S3ClientConfig;
  /**
   * A bearer token that opens /metrics (env CONFAB_METRICS_TOKEN): `Authorization: Bearer <token>`.
   * At least 16 characters. Default none; with neither this nor `metricsAllow`, /metrics is off (404).
   */
  metricsToken?: string;
  /**
   * Addresses and CIDR ranges (`10.0.0.0/8`, `::1`) whose scrapes of /metrics need no token (env
   * CONFAB_METRICS_ALLOW, comma separated). Matched against the TCP peer, never X-Forwarded-For.
   */
  metricsAllow?: string[];
  /**
   * On close (SIGTERM), how long the server keeps serving everything while /api/ready answers 503
   * `draining`, so a load balancer stops sending traffic before the listener closes (env
   * CONFAB_DRAIN_DELAY_SECONDS). Default 0: close at once.
   */
  drainDelayMs?: number;
  /** Test clock. */
  now?: () => Date;
}

/** The resolved configuration every part of the server reads. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** `bucket` or `bucket/prefix/`; undefined keeps files on disk. */
  filesS3Bucket: string | undefined;
  filesS3Client: S3ClientConfig | undefined;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailDomain: string;
  secret: string;
  webDir: string | undefined;
  publicUrl: string | undefined;
  logger: boolean;
  logStream: NodeJS.WritableStream | undefined;
  logLevel: LogLevel;
  logFormat: LogFormat;
  trustProxy: boolean;
  allowedOrigins: string[];
  wsFramesPerSecond: number;
  temporaryAccountsPerIpPerHour: number;
  uploadMegabytesPerUserPerHour: number;
  /** The image extensions added to the upload allow-list, each with its dot ('.png'). */
  uploadExtensions: string[];
  bodyTimeoutMs: number;
  signupsPerIpPerHour: number;
  messagesPerUserPerSecond: number;
  invitationsPerUserPerHour: number;
  invitationsPerChatPerHour: number;
  agentsPerUser: number;
  agentsPerUserPerHour: number;
  agentQueueMinutes: number;
  dataJobs: number;
  dataJobsPerChat: number;
  dataJobsPerUser: number;
  dataJobTimeoutMs: number;
  dataMemoryMegabytes: number;
  dataSpillMegabytes: number;
  agentCallsPerUserPerHour: number;
  agentCallsPerChatPerHour: number;
  openaiBaseUrl: string | undefined;
  openaiModel: string;
  openaiApiKey: string | undefined;
  geminiBaseUrl: string | undefined;
  geminiModel: string;
  geminiApiKey: string | undefined;
  aiTimeoutMs: number;
  aiIdleTimeoutMs: number;
  fetchAllowHosts: string[];
  searxngUrl: string | undefined;
  braveApiKey: string | undefined;
  braveBaseUrl: string;
  /** The Chromium binary @browse renders pages with; undefined: no rendering. */
  browseChromium: string | undefined;
  /** Where the inbound SMTP listener listens; undefined when it is off. */
  inboundSmtp: { host: string; port: number } | undefined;
  inboundMailsPerAddressPerHour: number;
  inboundMailsPerRecipientPerHour: number;
  inboundRecipientsPerMail: number;
  missedMentionDelayMinutes: number;
  missedMentionSweepMs: number;
  presenceTtlMs: number;
  /** The token that opens /metrics; undefined: only allow-listed addresses (or nobody) may scrape. */
  metricsToken: string | undefined;
  /** Parsed CIDR ranges whose peers may scrape /metrics without a token. */
  metricsAllow: MetricsAllowEntry[];
  drainDelayMs: number;
  mailRetryBaseMs: number;
  mailRetryMaxMs: number;
  mailRetryForMs: number;
  mailQueuePollMs: number;
  environment: string;
  now: () => Date;
}

const defaultPort = 8090;
const defaultWsFramesPerSecond = 20;
const defaultTemporaryAccountsPerIpPerHour = 100;
const defaultUploadMegabytesPerUserPerHour = 2048;
const defaultBodyTimeoutMs = 30_000;
const defaultSignupsPerIpPerHour = 30;
const defaultMessagesPerUserPerSecond = 20;
const defaultInvitationsPerUserPerHour = 20;
const defaultInvitationsPerChatPerHour = 40;
const defaultAgentsPerUser = 25;
const defaultAgentsPerUserPerHour = 10;
const defaultInboundMailsPerAddressPerHour = 200;
const defaultInboundMailsPerRecipientPerHour = 30;
const defaultInboundRecipientsPerMail = 10;

function numberOrUndefined(text: string | undefined): number | undefined {
  return text === undefined || text.trim() === '' ? undefined : Number(text);
}

function secondsToMilliseconds(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : seconds * 1000;
}

function hoursToMilliseconds(hours: number | undefined): number | undefined {
  return hours === undefined ? undefined : hours * 60 * 60 * 1000;
}

function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Reads `--name value` and `--name=value` flags into a plain map. */
export function parseFlags(argv: readonly string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (!argument.startsWith('--')) continue;
    const equals = argument.indexOf('=');
    if (equals > 0) {
      flags[argument.slice(2, equals)] = argument.slice(equals + 1);
    } else {
      const next = argv[index + 1];
      if (next !== undefined && !next.startsWith('--')) {
        flags[argument.slice(2)] = next;
        index += 1;
      } else {
        flags[argument.slice(2)] = 'true';
      }
    }
  }
  return flags;
}

/** Options from command-line flags and the environment; explicit options win over both. */
export function optionsFromEnvironment(
  argv: readonly string[] = [],
  environment: NodeJS.ProcessEnv = process.env,
): ServerOptions {
  const flags = parseFlags(argv);
  const portText = flags['port'] ?? environment['PORT'];
  const options: ServerOptions = {
    port: portText === undefined ? undefined : Number.parseInt(portText, 10),
    host: flags['host'] ?? environment['HOST'],
    dataDir: flags['data-dir'] ?? environment['CONFAB_DATA_DIR'],
    databaseUrl: environment['DATABASE_URL'],
    filesS3Bucket: environment['CONFAB_FILES_S3_BUCKET'],
    redisUrl: environment['REDIS_URL'],
    smtpUrl: environment['SMTP_URL'],
    mailDomain: environment['CONFAB_MAIL_DOMAIN'],
    secret: environment['CONFAB_SECRET'],
    webDir: flags['web-dir'] ?? environment['CONFAB_WEB_DIR'],
    publicUrl: environment['CONFAB_PUBLIC_URL'],
    logLevel: flags['log-level'] ?? environment['CONFAB_LOG_LEVEL'],
    logFormat: flags['log-format'] ?? environment['CONFAB_LOG_FORMAT'],
    trustProxy: ['1', 'true', 'yes'].includes((environment['CONFAB_TRUST_PROXY'] ?? '').toLowerCase()) || undefined,
    allowedOrigins: environment['CONFAB_ALLOWED_ORIGINS']?.split(',').map((origin) => origin.trim()).filter((origin) => origin !== ''),
    wsFramesPerSecond: environment['CONFAB_WS_FRAMES_PER_SECOND'] === undefined ? undefined : Number(environment['CONFAB_WS_FRAMES_PER_SECOND']),
    temporaryAccountsPerIpPerHour:
      environment['CONFAB_TEMPORARY_ACCOUNTS_PER_IP_PER_HOUR'] === undefined ? undefined : Number(environment['CONFAB_TEMPORARY_ACCOUNTS_PER_IP_PER_HOUR']),
    uploadMegabytesPerUserPerHour:
      environment['CONFAB_UPLOAD_MB_PER_USER_PER_HOUR'] === undefined ? undefined : Number(environment['CONFAB_UPLOAD_MB_PER_USER_PER_HOUR']),
    bodyTimeoutMs: secondsToMilliseconds(numberOrUndefined(environment['CONFAB_BODY_TIMEOUT_SECONDS'])),
    uploadExtensions: environment['CONFAB_UPLOAD_EXTENSIONS']?.split(','),
    signupsPerIpPerHour: numberOrUndefined(environment['CONFAB_SIGNUPS_PER_IP_PER_HOUR']),
    messagesPerUserPerSecond: numberOrUndefined(environment['CONFAB_MESSAGES_PER_USER_PER_SECOND']),
    invitationsPerUserPerHour: numberOrUndefined(environment['CONFAB_INVITATIONS_PER_USER_PER_HOUR']),
    invitationsPerChatPerHour: numberOrUndefined(environment['CONFAB_INVITATIONS_PER_CHAT_PER_HOUR']),
    agentsPerUser: numberOrUndefined(environment['CONFAB_AGENTS_PER_USER']),
    agentsPerUserPerHour: numberOrUndefined(environment['CONFAB_AGENTS_PER_USER_PER_HOUR']),
    agentQueueMinutes: numberOrUndefined(environment['CONFAB_AGENT_QUEUE_MINUTES']),
    dataJobs: numberOrUndefined(environment['CONFAB_DATA_JOBS']),
    dataJobsPerChat: numberOrUndefined(environment['CONFAB_DATA_JOBS_PER_CHAT']),
    dataJobsPerUser: numberOrUndefined(environment['CONFAB_DATA_JOBS_PER_USER']),
    dataJobTimeoutMs: secondsToMilliseconds(numberOrUndefined(environment['CONFAB_DATA_JOB_SECONDS'])),
    dataMemoryMegabytes: numberOrUndefined(environment['CONFAB_DATA_MEMORY_MB']),
    dataSpillMegabytes: numberOrUndefined(environment['CONFAB_DATA_SPILL_MB']),
    agentCallsPerUserPerHour: numberOrUndefined(environment['CONFAB_AGENT_CALLS_PER_USER_PER_HOUR']),
    agentCallsPerChatPerHour: numberOrUndefined(environment['CONFAB_AGENT_CALLS_PER_CHAT_PER_HOUR']),
    openaiBaseUrl: environment['CONFAB_OPENAI_BASE_URL'],
    openaiModel: environment['CONFAB_OPENAI_MODEL'],
    openaiApiKey: environment['CONFAB_OPENAI_API_KEY'],
    geminiBaseUrl: environment['CONFAB_GEMINI_BASE_URL'],
    geminiModel: environment['CONFAB_GEMINI_MODEL'],
    geminiApiKey: environment['CONFAB_GEMINI_API_KEY'],
    aiTimeoutMs: secondsToMilliseconds(numberOrUndefined(environment['CONFAB_AI_TIMEOUT_SECONDS'])),
    aiIdleTimeoutMs: secondsToMilliseconds(numberOrUndefined(environment['CONFAB_AI_IDLE_SECONDS'])),
    fetchAllowHosts: environment['CONFAB_FETCH_ALLOW_HOSTS']?.split(',').map((entry) => entry.trim()).filter((entry) => entry !== ''),
    searxngUrl: environment['CONFAB_SEARXNG_URL'],
    braveApiKey: environment['CONFAB_BRAVE_API_KEY'],
    braveBaseUrl: environment['CONFAB_BRAVE_BASE_URL'],
    browseChromium: environment['CONFAB_BROWSE_CHROMIUM'],
    inboundSmtp: environment['CONFAB_INBOUND_SMTP'],
    inboundMailsPerAddressPerHour: numberOrUndefined(environment['CONFAB_INBOUND_MAILS_PER_ADDRESS_PER_HOUR']),
    inboundMailsPerRecipientPerHour: numberOrUndefined(environment['CONFAB_INBOUND_MAILS_PER_RECIPIENT_PER_HOUR']),
    inboundRecipientsPerMail: numberOrUndefined(environment['CONFAB_INBOUND_RECIPIENTS_PER_MAIL']),
    missedMentionDelayMinutes: numberOrUndefined(environment['CONFAB_MISSED_MENTION_DELAY_MINUTES']),
    missedMentionSweepMs: secondsToMilliseconds(numberOrUndefined(environment['CONFAB_MISSED_MENTION_SWEEP_SECONDS'])),
    presenceTtlMs: secondsToMilliseconds(numberOrUndefined(environment['CONFAB_PRESENCE_TTL_SECONDS'])),
    metricsToken: environment['CONFAB_METRICS_TOKEN'],
    metricsAllow: environment['CONFAB_METRICS_ALLOW']?.split(','),
    drainDelayMs: secondsToMilliseconds(numberOrUndefined(environment['CONFAB_DRAIN_DELAY_SECONDS'])),
    mailRetryBaseMs: secondsToMilliseconds(numberOrUndefined(environment['CONFAB_MAIL_RETRY_BASE_SECONDS'])),
    mailRetryMaxMs: secondsToMilliseconds(numberOrUndefined(environment['CONFAB_MAIL_RETRY_MAX_SECONDS'])),
    mailRetryForMs: hoursToMilliseconds(numberOrUndefined(environment['CONFAB_MAIL_RETRY_HOURS'])),
    mailQueuePollMs: secondsToMilliseconds(numberOrUndefined(environment['CONFAB_MAIL_QUEUE_POLL_SECONDS'])),
  };
  return options;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** Keeps the secret across restarts so issued tokens and encrypted content stay readable. */
function loadOrCreateSecret(dataDir: string): string {
  const secretPath = join(dataDir, 'secret');
  if (existsSync(secretPath)) {
    const stored = readFileSync(secretPath, 'utf8').trim();
    if (stored.length > 0) return stored;
  }
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(secretPath, `${secret}\n`, { mode: 0o600 });
  chmodSync(secretPath, 0o600);
  return secret;
}

/**
 * The prefix of this deployment's keys in a shared Redis. Instances of one deployment share
 * CONFAB_SECRET (tokens must verify on all of them), so a name derived from it groups exactly
 * them, and deployments or test servers sharing one Redis never mix counts or presence.
 */
export function clusterNamespace(secret: string): string {
  return `confab:${createHash('sha256').update(`cluster:${secret}`).digest('hex').slice(0, 16)}`;
}

/** 'off' (or 'false', '0') turns the listener off; `host:port`, `:port` or `port` pick the address. */
export function inboundSmtpAddress(text: string | undefined): { host: string; port: number } | undefined {
  const value = nonEmpty(text)?.trim() ?? '127.0.0.1:2525';
  if (['off', 'false', '0', 'no'].includes(value.toLowerCase())) return undefined;
  const colon = value.lastIndexOf(':');
  const host = colon < 0 ? '127.0.0.1' : value.slice(0, colon).replace(/^\[|\]$/g, '') || '127.0.0.1';
  const port = Number.parseInt(colon < 0 ? value : value.slice(colon + 1), 10);
  return { host, port: Number.isInteger(port) && port >= 0 && port < 65536 ? port : 2525 };
}

/** The log format `text` names, else 'pretty' on a terminal and 'json' elsewhere; a bad name throws. */
export function logFormatFor(text: string | undefined, stream: NodeJS.WritableStream): LogFormat {
  const terminal = (stream as { isTTY?: boolean }).isTTY === true;
  return oneOf('--log-format (CONFAB_LOG_FORMAT)', text, logFormats, terminal ? 'pretty' : 'json');
}

/** One of `allowed` (any case), or `fallback` when not given; anything else is a clear error. */
function oneOf<T extends string>(name: string, text: string | undefined, allowed: readonly T[], fallback: T): T {
  const value = nonEmpty(text)?.trim().toLowerCase();
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${name} must be one of ${allowed.join(', ')} (got '${text}')`);
  return value as T;
}

/**
 * CONFAB_UPLOAD_EXTENSIONS as extensions with their dot. Only known-safe raster images may be
 * added (their content is checked by signature and a browser shows them without running anything);
 * anything else stops the start with a message saying what may be listed.
 */
function addedUploadExtensions(listed: readonly string[]): string[] {
  const added = new Set<string>();
  for (const entry of listed) {
    const extension = entry.trim().toLowerCase().replace(/^\.*/, '');
    if (extension === '' || uploadExtensions.includes(`.${extension}`)) continue;
    if (!isImageExtension(`.${extension}`)) {
      const allowed = constants.upload.imageExtensions.map((image) => image.slice(1)).join(', ');
      throw new Error(`CONFAB_UPLOAD_EXTENSIONS may add only these image types: ${allowed} (got '${entry.trim()}')`);
    }
    added.add(`.${extension}`);
  }
  return [...added];
}

/** At most 5 minutes: a drain delay longer than that is a typo, and the shutdown bound must stay finite. */
const maximumDrainDelayMs = 300_000;

function checkedDrainDelay(value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isFinite(value) || value < 0 || value > maximumDrainDelayMs) {
    throw new Error(`CONFAB_DRAIN_DELAY_SECONDS must be a number of seconds from 0 to ${maximumDrainDelayMs / 1000} (got '${value / 1000}')`);
  }
  return value;
}

/** `bucket` or `bucket/prefix/`, refused at start-up when it names no bucket. */
function checkedBucket(value: string | undefined): string | undefined {
  const setting = nonEmpty(value?.trim());
  if (setting !== undefined) parseBucket(setting);
  return setting;
}

/** One entry of CONFAB_METRICS_ALLOW: an address range, kept as written for messages. */
export interface MetricsAllowEntry {
  text: string;
  range: [ipaddr.IPv4 | ipaddr.IPv6, number];
}

const minimumMetricsTokenLength = 16;

/** CONFAB_METRICS_TOKEN: long enough to be a secret, one word (it travels in a header). */
function checkedMetricsToken(value: string | undefined): string | undefined {
  const token = nonEmpty(value)?.trim();
  if (token === undefined) return undefined;
  if (/\s/.test(token)) throw new Error('CONFAB_METRICS_TOKEN must not contain spaces');
  if (token.length < minimumMetricsTokenLength) {
    throw new Error(`CONFAB_METRICS_TOKEN must be at least ${minimumMetricsTokenLength} characters (got ${token.length}); use a random value, e.g. openssl rand -hex 32`);
  }
  return token;
}

/**
 * CONFAB_METRICS_ALLOW: addresses (a /32 or /128) and CIDR ranges; IPv4-mapped IPv6 forms are
 * taken as the IPv4 address they carry. Anything else stops the start naming the entry.
 */
export function metricsAllowEntries(listed: readonly string[]): MetricsAllowEntry[] {
  const entries: MetricsAllowEntry[] = [];
  for (const entry of listed) {
    const text = entry.trim();
    if (text === '') continue;
    try {
      if (text.includes('/')) {
        const [address, bits] = ipaddr.parseCIDR(text);
        entries.push({ text, range: address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96 ? [(address as ipaddr.IPv6).toIPv4Address(), bits - 96] : [address, bits] });
      } else {
        const address = ipaddr.process(text);
        entries.push({ text, range: [address, address.kind() === 'ipv4' ? 32 : 128] });
      }
    } catch {
      throw new Error(`CONFAB_METRICS_ALLOW lists addresses and CIDR ranges, e.g. 127.0.0.1,10.0.0.0/8,::1 (got '${text}')`);
    }
  }
  return entries;
}

/** Resolves options into a full config, creating the data directory and secret if needed. */
export function resolveConfig(options: ServerOptions = {}): ServerConfig {
  const dataDir = resolve(options.dataDir ?? './data');
  // Private to the server's account (docs/SECURITY.md A14); a data dir that exists is checked at start-up.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const port = options.port !== undefined && Number.isFinite(options.port) ? options.port : defaultPort;
  return {
    port,
    host: nonEmpty(options.host) ?? '0.0.0.0',
    dataDir,
    filesS3Bucket: checkedBucket(options.filesS3Bucket),
    filesS3Client: options.filesS3Client,
    databaseUrl: nonEmpty(options.databaseUrl),
    redisUrl: nonEmpty(options.redisUrl),
    smtpUrl: nonEmpty(options.smtpUrl),
    mailDomain: nonEmpty(options.mailDomain) ?? 'confab.localhost',
    secret: nonEmpty(options.secret) ?? loadOrCreateSecret(dataDir),
    webDir: nonEmpty(options.webDir) === undefined ? undefined : resolve(options.webDir as string),
    publicUrl: nonEmpty(options.publicUrl)?.replace(/\/+$/, ''),
    logger: options.logger ?? false,
    logStream: options.logStream,
    logLevel: oneOf('--log-level (CONFAB_LOG_LEVEL)', options.logLevel, logLevels, 'info'),
    logFormat: logFormatFor(options.logFormat, options.logStream ?? process.stdout),
    trustProxy: options.trustProxy ?? false,
    allowedOrigins: (options.allowedOrigins ?? []).map((origin) => origin.replace(/\/+$/, '')),
    wsFramesPerSecond: positiveOr(options.wsFramesPerSecond, defaultWsFramesPerSecond),
    temporaryAccountsPerIpPerHour: Math.floor(positiveOr(options.temporaryAccountsPerIpPerHour, defaultTemporaryAccountsPerIpPerHour)),
    uploadMegabytesPerUserPerHour: positiveOr(options.uploadMegabytesPerUserPerHour, defaultUploadMegabytesPerUserPerHour),
    bodyTimeoutMs: positiveOr(options.bodyTimeoutMs, defaultBodyTimeoutMs),
    uploadExtensions: addedUploadExtensions(options.uploadExtensions ?? []),
    signupsPerIpPerHour: Math.floor(positiveOr(options.signupsPerIpPerHour, defaultSignupsPerIpPerHour)),
    messagesPerUserPerSecond: positiveOr(options.messagesPerUserPerSecond, defaultMessagesPerUserPerSecond),
    invitationsPerUserPerHour: Math.floor(positiveOr(options.invitationsPerUserPerHour, defaultInvitationsPerUserPerHour)),
    invitationsPerChatPerHour: Math.floor(positiveOr(options.invitationsPerChatPerHour, defaultInvitationsPerChatPerHour)),
    agentsPerUser: Math.floor(positiveOr(options.agentsPerUser, defaultAgentsPerUser)),
    agentsPerUserPerHour: Math.floor(positiveOr(options.agentsPerUserPerHour, defaultAgentsPerUserPerHour)),
    agentQueueMinutes: positiveOr(options.agentQueueMinutes, 10),
    dataJobs: Math.floor(positiveOr(options.dataJobs, 2)),
    dataJobsPerChat: Math.floor(positiveOr(options.dataJobsPerChat, 1)),
    dataJobsPerUser: Math.floor(positiveOr(options.dataJobsPerUser, 1)),
    dataJobTimeoutMs: positiveOr(options.dataJobTimeoutMs, 60_000),
    dataMemoryMegabytes: Math.floor(positiveOr(options.dataMemoryMegabytes, 256)),
    // 0 is a choice here (no spilling), not a missing value.
    dataSpillMegabytes: options.dataSpillMegabytes !== undefined && Number.isFinite(options.dataSpillMegabytes) && options.dataSpillMegabytes >= 0 ? Math.floor(options.dataSpillMegabytes) : 512,
    agentCallsPerUserPerHour: Math.floor(positiveOr(options.agentCallsPerUserPerHour, 100)),
    agentCallsPerChatPerHour: Math.floor(positiveOr(options.agentCallsPerChatPerHour, 300)),
    openaiBaseUrl: nonEmpty(options.openaiBaseUrl)?.trim().replace(/\/+$/, ''),
    openaiModel: nonEmpty(options.openaiModel)?.trim() ?? 'gpt-4.1-mini',
    openaiApiKey: nonEmpty(options.openaiApiKey)?.trim(),
    geminiBaseUrl: nonEmpty(options.geminiBaseUrl)?.trim().replace(/\/+$/, ''),
    geminiModel: nonEmpty(options.geminiModel)?.trim() ?? 'gemini-2.5-flash',
    geminiApiKey: nonEmpty(options.geminiApiKey)?.trim(),
    aiTimeoutMs: positiveOr(options.aiTimeoutMs, 120_000),
    aiIdleTimeoutMs: positiveOr(options.aiIdleTimeoutMs, 30_000),
    fetchAllowHosts: options.fetchAllowHosts ?? [],
    searxngUrl: nonEmpty(options.searxngUrl)?.trim().replace(/\/+$/, ''),
    braveApiKey: nonEmpty(options.braveApiKey)?.trim(),
    braveBaseUrl: nonEmpty(options.braveBaseUrl)?.trim().replace(/\/+$/, '') ?? 'https://api.search.brave.com',
    browseChromium: nonEmpty(options.browseChromium)?.trim(),
    inboundSmtp: inboundSmtpAddress(options.inboundSmtp),
    inboundMailsPerAddressPerHour: Math.floor(positiveOr(options.inboundMailsPerAddressPerHour, defaultInboundMailsPerAddressPerHour)),
    inboundMailsPerRecipientPerHour: Math.floor(positiveOr(options.inboundMailsPerRecipientPerHour, defaultInboundMailsPerRecipientPerHour)),
    inboundRecipientsPerMail: Math.floor(positiveOr(options.inboundRecipientsPerMail, defaultInboundRecipientsPerMail)),
    missedMentionDelayMinutes: positiveOr(options.missedMentionDelayMinutes, 10),
    missedMentionSweepMs: positiveOr(options.missedMentionSweepMs, 60_000),
    presenceTtlMs: positiveOr(options.presenceTtlMs, 45_000),
    metricsToken: checkedMetricsToken(options.metricsToken),
    metricsAllow: metricsAllowEntries(options.metricsAllow ?? []),
    drainDelayMs: checkedDrainDelay(options.drainDelayMs),
    mailRetryBaseMs: positiveOr(options.mailRetryBaseMs, 30_000),
    mailRetryMaxMs: positiveOr(options.mailRetryMaxMs, 60 * 60 * 1000),
    mailRetryForMs: positiveOr(options.mailRetryForMs, 24 * 60 * 60 * 1000),
    mailQueuePollMs: positiveOr(options.mailQueuePollMs, 5_000),
    environment: process.env['NODE_ENV'] ?? 'production',
    now: options.now ?? (() => new Date()),
  };
}
