import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import { logRedactPaths, redactUrl } from './redaction';

/** Levels `--log-level` / CONFAB_LOG_LEVEL accept, quietest last. */
export const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];
/** `json`: one JSON object a line (pino). `pretty`: one readable line per request and event. */
export const logFormats = ['json', 'pretty'] as const;
export type LogFormat = (typeof logFormats)[number];

/**
 * One line per request, written when it completes: method, redacted URL, status and time (Fastify's
 * default writes two, 'incoming request' and 'request completed'). Errors keep Fastify's lines.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

const levelNames: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every pino line has, or that the readable form already shows. */
const shownOrNoise = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'err']);

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

function fieldText(value: unknown): string {
  return typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value);
}

/**
 * A pino log line (JSON) as a person reads it:
 * `14:02:11 GET /api/health 200 3 ms`, `14:02:12 WARN inbound SMTP … address=127.0.0.1:2525`.
 * Secrets were removed before the line was written (redaction happens in pino), so none appear.
 */
export function prettyLogLine(json: string, color = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const paint = (code: number, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const level = typeof entry['level'] === 'number' ? entry['level'] : 30;
  const request = entry['req'] as { method?: string; url?: string } | undefined;
  const response = entry['res'] as { statusCode?: number } | undefined;
  const parts = [paint(2, clock(entry['time']))];
  if (level !== 30) parts.push(paint(level >= 50 ? 31 : level >= 40 ? 33 : 2, levelNames[level] ?? String(level)));
  if (request?.method !== undefined && response?.statusCode !== undefined && typeof entry['responseTime'] === 'number') {
    const status = response.statusCode;
    parts.push(request.method, request.url ?? '', paint(status >= 500 ? 31 : status >= 400 ? 33 : 32, String(status)), `${Math.round(entry['responseTime'])} ms`);
    if (level !== 30 && typeof entry['msg'] === 'string') parts.push(entry['msg']);
  } else {
    parts.push(String(entry['msg'] ?? ''));
  }
  for (const [key, value] of Object.entries(entry)) {
    if (!shownOrNoise.has(key) && value !== undefined) parts.push(`${key}=${fieldText(value)}`);
  }
  const error = entry['err'] as { message?: string; stack?: string } | undefined;
  const errorText = error === undefined ? '' : `\n  ${(error.stack ?? error.message ?? '').split('\n').join('\n  ')}`;
  return `${parts.join(' ')}${errorText}\n`;
}

/** A pino destination that writes each JSON line to `output` in the readable form. */
export function prettyLogStream(output: NodeJS.WritableStream): { write(line: string): boolean } {
  const color = (output as { isTTY?: boolean }).isTTY === true && process.env['NO_COLOR'] === undefined;
  return { write: (line) => output.write(prettyLogLine(line.trimEnd(), color)) };
}

/**
 * JSON lines to standard output without waiting on it: Node writes to a pipe or file synchronously
 * on Linux, so each request's line was a system call on the event loop, and a log reader that
 * falls behind (a full pipe) would stall every request. Lines written while a write is under way
 * go out together with the next. What is still buffered is written when the process exits; a
 * kill -9 can lose the last lines, never a request.
 */
function stdoutLines() {
  return pino.destination({ dest: 1, sync: false });
}

export interface LoggingConfig {
  logger: boolean;
  logLevel: LogLevel;
  logFormat: LogFormat;
  logStream: NodeJS.WritableStream | undefined;
}

/**
 * Fastify's logger options. Logs carry method, redacted URL and status only: no headers
 * (Authorization), no bodies (passwords), no secrets of the URL (http/redaction.ts).
 * `logStream` defaults to stdout.
 */
export function loggerOptions(config: LoggingConfig) {
  if (!config.logger) return { logger: false as const };
  const output = config.logStream ?? process.stdout;
  return {
    logger: {
      level: config.logLevel,
      stream: config.logFormat === 'pretty' ? prettyLogStream(output) : config.logStream === undefined ? stdoutLines() : output,
      redact: { paths: [...logRedactPaths], censor: '[redacted]' },
      serializers: {
        req: (request: { method: string; url: string; ip?: string }) => ({
          method: request.method,
          url: redactUrl(request.url),
          ip: request.ip,
        }),
      },
    },
    logController: new OneLinePerRequest(),
  };
}
