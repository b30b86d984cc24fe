/**
 * The one place that knows which parts of a request carry a secret, so no log line ever holds
 * one. Secrets travel in three ways:
 *
 * - query parameters: `/reset-password?token=…`, `/complete-signup?…&temp_password=…`,
 *   `/api/files/…?token=…`, `/api/image-proxy?token=…&url=…`, `/live/{chat}/?token=…`;
 * - path segments: `/join/{token}`, `/api/invitation/{token}`, `/api/accept-invitation/{token}`;
 * - the live website's capability: `/live/{chat}/~{capability}/…`.
 *
 * Matching is deliberately wider than the routes: parameter names and path segments are compared
 * decoded and in any case (Fastify decodes `?tok%65n=` into `token` before reading it), and any
 * parameter whose name contains token, password or secret counts.
 */

/** Fields a pino log object may hold that must print as '[redacted]' (defence in depth). */
export const logRedactPaths: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'body.password',
  'body.passwordConfirm',
  'body.token',
  'body.temp_password',
  'body.openai_api_key',
  'body.gemini_api_key',
  'token',
  'password',
  'link',
];

const redacted = '[redacted]';

/** Query parameter names (decoded, any case) whose values are secrets. */
const secretParameterName = /token|password|secret/i;
/** Path segments (decoded, any case) followed by a secret segment: /join/{token}, /api/invitation/{token}. */
const segmentsBeforeSecret = new Set(['join', 'invitation', 'accept-invitation']);

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The index of the first non-empty segment after `index`, or -1. */
function nextSegment(segments: readonly string[], index: number): number {
  for (let position = index + 1; position < segments.length; position += 1) if (segments[position] !== '') return position;
  return -1;
}

/**
 * Only a real '/' ends a segment: the router reads `/join/a%2Fb` as the one token 'a/b'. Empty
 * segments are skipped (`/join//{token}`) and a '~' segment is a capability wherever it stands.
 */
function redactPath(path: string): string {
  const segments = path.split('/');
  const names = segments.map((segment) => decode(segment).trim().toLowerCase());
  const secret = new Set<number>();
  const capability = new Set<number>();
  names.forEach((name, index) => {
    if (name.startsWith('~')) capability.add(index);
    if (segmentsBeforeSecret.has(name)) {
      const next = nextSegment(names, index);
      if (next > 0) secret.add(next);
    }
    // /live/{chat}/{capability}/…: the third segment is the capability, with or without its '~'.
    if (name === 'live' && index === 1) {
      const chat = nextSegment(names, index);
      const next = chat < 0 ? -1 : nextSegment(names, chat);
      if (next > 0) capability.add(next);
    }
  });
  return segments
    .map((segment, index) => (capability.has(index) ? `~${redacted}` : secret.has(index) ? redacted : segment))
    .join('/');
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const name = pair.slice(0, equals);
      return secretParameterName.test(decode(name)) ? `${name}=${redacted}` : pair;
    })
    .join('&');
}

/**
 * The request URL as it may be logged: every secret replaced by '[redacted]', all else kept.
 *
 * @example redactUrl('/reset-password?token=abc&x=1') // '/reset-password?token=[redacted]&x=1'
 * @example redactUrl('/live/abc/~u.1.sig/index.html') // '/live/abc/~[redacted]/index.html'
 */
export function redactUrl(url: string): string {
  const questionMark = url.indexOf('?');
  if (questionMark < 0) return redactPath(url);
  return `${redactPath(url.slice(0, questionMark))}?${redactQuery(url.slice(questionMark + 1))}`;
}
