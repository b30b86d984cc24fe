import { sql } from 'kysely';
import { Redis } from 'ioredis';
import nodemailer from 'nodemailer';
import type { ServerConfig } from '../config';
import type { AgentPoolStatus } from '../services/context';
import type { FileStore } from '../services/files/fileStore';
import type { ConfabDatabase } from '../store/database';

/**
 * The readiness answer (docs/OPERATIONS.md, Health and readiness): whether this instance should
 * get traffic, with each dependency's state. Required checks make it 503 when they fail (the
 * database, Redis when configured, draining); the others are reported only (the file bucket, the
 * mail relay, the hosted agents' pools), since the server still serves chats without them. Every
 * check is bounded, so the answer never hangs on a dependency that does not answer.
 */

/** Each check gives up after this long and counts as down ('timeout'). */
export const checkTimeoutMs = 1500;
/** The mail relay is asked at most this often: a login per load-balancer probe would be noise in its logs. */
const mailCheckEveryMs = 30_000;

export type CheckStatus = 'up' | 'down' | 'saturated';

/** One dependency's state. `error` is a short word (an error code, 'timeout'), never a message, host or URL. */
export interface CheckResult {
  status: CheckStatus;
  /** Whether its failure makes the instance unready (503). */
  required: boolean;
  latency_ms?: number;
  error?: string;
  /** The hosted agents' pools, as /api/health gives them. */
  pools?: Record<string, AgentPoolStatus>;
  /** When the mail relay was last asked (its answer is reused for 30 s). */
  checked_at?: string;
}

export interface ReadinessAnswer {
  message: string;
  code: 200 | 503;
  data: {
    ready: boolean;
    draining: boolean;
    checks: Record<string, CheckResult>;
  };
}

/** A short, safe word for a failure: a system error code, or the error's name; never its message. */
export function failureWord(error: unknown): string {
  if (error instanceof CheckTimeout) return 'timeout';
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
  if (typeof name === 'string' && /^[A-Za-z][A-Za-z0-9_]{1,60}$/.test(name) && name !== 'Error') return name;
  return 'unavailable';
}

class CheckTimeout extends Error {}

/** Runs `check` with a fresh abort signal; past the bound it is aborted and counts as a timeout. */
async function bounded(check: (signal: AbortSignal) => Promise<void>, timeoutMs = checkTimeoutMs): Promise<{ ok: true; ms: number } | { ok: false; ms: number; error: unknown }> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new CheckTimeout());
    }, timeoutMs);
  });
  try {
    await Promise.race([check(controller.signal), timeout]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, ms: Math.round(performance.now() - started), error };
  } finally {
    clearTimeout(timer);
  }
}

function resultOf(outcome: Awaited<ReturnType<typeof bounded>>, required: boolean): CheckResult {
  return outcome.ok ? { status: 'up', required, latency_ms: outcome.ms } : { status: 'down', required, latency_ms: outcome.ms, error: failureWord(outcome.error) };
}

/**
 * PINGs Redis. While the client's first connection is under way the check waits for it; once a
 * connection failed, the check fails at once with that failure while the client reconnects.
 */
async function pingRedis(client: RedisWithLastError, signal: AbortSignal): Promise<void> {
  if (client.status !== 'ready' && client.lastError !== undefined) throw client.lastError;
  if (client.status !== 'ready') {
    await new Promise<void>((resolve, reject) => {
      const onReady = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        client.off('ready', onReady);
        reject(new CheckTimeout());
      };
      client.once('ready', onReady);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
  const answer = await client.ping();
  if (answer !== 'PONG') throw new Error('unexpected answer');
}

type RedisWithLastError = Redis & { lastError?: unknown };

export class Readiness {
  private draining = false;
  private readonly redis: RedisWithLastError | undefined;
  private readonly mailer: nodemailer.Transporter | undefined;
  private mailResult: { result: CheckResult; atMs: number } | undefined;
  private mailChecking: Promise<CheckResult> | undefined;
  /** Probes arriving while one runs share its answer: a slow dependency never piles checks up. */
  private running: Promise<ReadinessAnswer> | undefined;

  constructor(
    private readonly options: {
      config: ServerConfig;
      database: ConfabDatabase;
      files: FileStore;
      agentPools: ReadonlyMap<string, () => AgentPoolStatus>;
    },
  ) {
    const { redisUrl, smtpUrl } = options.config;
    if (redisUrl !== undefined) {
      // Its own connection, which fails fast while Redis is away (no offline queue) and keeps
      // reconnecting; the bus and the limit counters queue and retry on theirs instead.
      const client: RedisWithLastError = new Redis(redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        connectTimeout: checkTimeoutMs,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      });
      client.on('error', (error: unknown) => {
        client.lastError = error;
      });
      client.on('ready', () => {
        client.lastError = undefined;
      });
      this.redis = client;
    }
    if (smtpUrl !== undefined) {
      // nodemailer's own timeouts end the attempt a little before the bound does, with its code.
      const timeout = checkTimeoutMs - 250;
      this.mailer = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout } as never);
    }
  }

  /** From now on the instance answers 503 `draining` (close() calls it first). */
  startDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  check(): Promise<ReadinessAnswer> {
    this.running ??= this.evaluate().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async evaluate(): Promise<ReadinessAnswer> {
    const { config, database, files } = this.options;
    const checks: Record<string, CheckResult> = {};
    const pending: Promise<void>[] = [];
    pending.push(
      bounded(async () => {
        await sql`select 1`.execute(database.db);
      }).then((outcome) => {
        checks['database'] = resultOf(outcome, true);
      }),
    );
    const redis = this.redis;
    if (redis !== undefined) {
      pending.push(bounded((signal) => pingRedis(redis, signal)).then((outcome) => void (checks['redis'] = resultOf(outcome, true))));
    }
    if (config.filesS3Bucket !== undefined && files.ping !== undefined) {
      const ping = files.ping.bind(files);
      pending.push(bounded((signal) => ping(signal)).then((outcome) => void (checks['files'] = resultOf(outcome, false))));
    }
    if (this.mailer !== undefined) pending.push(this.mailCheck().then((result) => void (checks['mail'] = result)));
    await Promise.all(pending);
    const pools = Object.fromEntries([...this.options.agentPools].map(([name, status]) => [name, status()]));
    if (Object.keys(pools).length > 0) {
      checks['agents'] = { status: Object.values(pools).some((pool) => pool.saturated) ? 'saturated' : 'up', required: false, pools };
    }
    const failed = Object.entries(checks).filter(([, result]) => result.required && result.status !== 'up').map(([name]) => name);
    const ready = failed.length === 0 && !this.draining;
    return {
      message: ready ? 'Ready.' : notReadyMessage(failed, this.draining),
      code: ready ? 200 : 503,
      data: { ready, draining: this.draining, checks: orderedChecks(checks) },
    };
  }

  /** The relay's answer, asked again only after 30 s; a probe in between gets the last one. */
  private mailCheck(): Promise<CheckResult> {
    const cached = this.mailResult;
    if (cached !== undefined && Date.now() - cached.atMs < mailCheckEveryMs) return Promise.resolve(cached.result);
    const mailer = this.mailer;
    if (mailer === undefined) return Promise.resolve({ status: 'up', required: false });
    this.mailChecking ??= bounded(async () => {
      await mailer.verify();
    })
      .then((outcome) => {
        const result = { ...resultOf(outcome, false), checked_at: new Date().toISOString() };
        this.mailResult = { result, atMs: Date.now() };
        return result;
      })
      .finally(() => {
        this.mailChecking = undefined;
      });
    return this.mailChecking;
  }

  close(): void {
    this.redis?.disconnect();
    this.mailer?.close();
  }
}

const checkOrder = ['database', 'redis', 'files', 'mail', 'agents'];

function orderedChecks(checks: Record<string, CheckResult>): Record<string, CheckResult> {
  return Object.fromEntries(checkOrder.filter((name) => checks[name] !== undefined).map((name) => [name, checks[name] as CheckResult]));
}

function notReadyMessage(failed: string[], draining: boolean): string {
  const reasons = [...(draining ? ['the instance is draining'] : []), ...failed.map((name) => `${name === 'database' ? 'the database' : name === 'redis' ? 'Redis' : name} is down`)];
  return `Not ready: ${reasons.join('; ')}.`;
}
