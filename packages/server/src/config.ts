import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

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
  /** Built reference app served at / with SPA fallback. */
  webDir?: string;
  /** Base of mailed links; default: the listening URL. */
  publicUrl?: string;
  logger?: boolean;
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
  /** Test clock. */
  now?: () => Date;
}

/** The resolved configuration every part of the server reads. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailDomain: string;
  secret: string;
  webDir: string | undefined;
  publicUrl: string | undefined;
  logger: boolean;
  trustProxy: boolean;
  allowedOrigins: string[];
  wsFramesPerSecond: number;
  temporaryAccountsPerIpPerHour: number;
  uploadMegabytesPerUserPerHour: number;
  environment: string;
  now: () => Date;
}

const defaultPort = 8090;
const defaultWsFramesPerSecond = 20;
const defaultTemporaryAccountsPerIpPerHour = 100;
const defaultUploadMegabytesPerUserPerHour = 2048;

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
    redisUrl: environment['REDIS_URL'],
    smtpUrl: environment['SMTP_URL'],
    mailDomain: environment['CONFAB_MAIL_DOMAIN'],
    secret: environment['CONFAB_SECRET'],
    webDir: flags['web-dir'] ?? environment['CONFAB_WEB_DIR'],
    publicUrl: environment['CONFAB_PUBLIC_URL'],
    trustProxy: ['1', 'true', 'yes'].includes((environment['CONFAB_TRUST_PROXY'] ?? '').toLowerCase()) || undefined,
    allowedOrigins: environment['CONFAB_ALLOWED_ORIGINS']?.split(',').map((origin) => origin.trim()).filter((origin) => origin !== ''),
    wsFramesPerSecond: environment['CONFAB_WS_FRAMES_PER_SECOND'] === undefined ? undefined : Number(environment['CONFAB_WS_FRAMES_PER_SECOND']),
    temporaryAccountsPerIpPerHour:
      environment['CONFAB_TEMPORARY_ACCOUNTS_PER_IP_PER_HOUR'] === undefined ? undefined : Number(environment['CONFAB_TEMPORARY_ACCOUNTS_PER_IP_PER_HOUR']),
    uploadMegabytesPerUserPerHour:
      environment['CONFAB_UPLOAD_MB_PER_USER_PER_HOUR'] === undefined ? undefined : Number(environment['CONFAB_UPLOAD_MB_PER_USER_PER_HOUR']),
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

/** Resolves options into a full config, creating the data directory and secret if needed. */
export function resolveConfig(options: ServerOptions = {}): ServerConfig {
  const dataDir = resolve(options.dataDir ?? './data');
  mkdirSync(dataDir, { recursive: true });
  const port = options.port !== undefined && Number.isFinite(options.port) ? options.port : defaultPort;
  return {
    port,
    host: nonEmpty(options.host) ?? '0.0.0.0',
    dataDir,
    databaseUrl: nonEmpty(options.databaseUrl),
    redisUrl: nonEmpty(options.redisUrl),
    smtpUrl: nonEmpty(options.smtpUrl),
    mailDomain: nonEmpty(options.mailDomain) ?? 'confab.localhost',
    secret: nonEmpty(options.secret) ?? loadOrCreateSecret(dataDir),
    webDir: nonEmpty(options.webDir) === undefined ? undefined : resolve(options.webDir as string),
    publicUrl: nonEmpty(options.publicUrl)?.replace(/\/+$/, ''),
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    allowedOrigins: (options.allowedOrigins ?? []).map((origin) => origin.replace(/\/+$/, '')),
    wsFramesPerSecond: positiveOr(options.wsFramesPerSecond, defaultWsFramesPerSecond),
    temporaryAccountsPerIpPerHour: Math.floor(positiveOr(options.temporaryAccountsPerIpPerHour, defaultTemporaryAccountsPerIpPerHour)),
    uploadMegabytesPerUserPerHour: positiveOr(options.uploadMegabytesPerUserPerHour, defaultUploadMegabytesPerUserPerHour),
    environment: process.env['NODE_ENV'] ?? 'production',
    now: options.now ?? (() => new Date()),
  };
}
