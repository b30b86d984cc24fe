import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { addressRefusal, AllowList, effectivePort, isBadPort, systemResolver, type ResolvedAddress, type Resolver } from './addressGuard';

/**
 * The one guarded fetcher of the server (docs/SECURITY.md H7): @browse, @deep and the image proxy reach the
 * web only through it. Every hop (the first URL and each redirect) is parsed, its name resolved
 * once, every address judged by the guard, and the connection made to the judged address only
 * (an undici Agent whose `connect.lookup` answers that address): no second DNS answer can slip in.
 */

export const fetchErrorCodes = {
  invalid_url: 'invalid_url',
  unsupported_scheme: 'unsupported_scheme',
  refused_address: 'refused_address',
  refused_port: 'refused_port',
  not_found: 'not_found',
  too_many_redirects: 'too_many_redirects',
  too_large: 'too_large',
  timeout: 'timeout',
  unsupported_type: 'unsupported_type',
  http_status: 'http_status',
  network: 'network',
} as const;
export type FetchErrorCode = (typeof fetchErrorCodes)[keyof typeof fetchErrorCodes];

/** A refusal or failure of the fetcher; `message` is worded for a chat reply. */
export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

export interface FetcherOptions {
  /** `host:port` pairs that may be reached although not public (`CONFAB_FETCH_ALLOW_HOSTS`). */
  allowHosts?: readonly string[];
  /** Name resolution; default the system's. Tests inject one. */
  resolver?: Resolver;
  /** The whole fetch, redirects and body included. Default 10,000 ms. */
  timeoutMs?: number;
  /** The largest body read. Default 5 MB. */
  maxBytes?: number;
  /** Redirects followed, each checked again. Default 5. */
  maxRedirects?: number;
}

/** What a caller accepts: a content type (without parameters) → a refusal text, or undefined to accept. */
export type ContentTypePolicy = (mediaType: string) => string | undefined;

export interface FetchedBody {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** The media type without parameters, lower case ('text/html'). */
  mediaType: string;
  /** The Content-Type header as sent. */
  contentType: string;
  body: Buffer;
}

export const defaultFetchTimeoutMs = 10_000;
export const defaultFetchMaxBytes = 5 * 1024 * 1024;
export const defaultMaxRedirects = 5;

/** The media types of PDF documents; their text is read by tools/pdfText.ts, never rendered. */
export const pdfMediaTypes: ReadonlySet<string> = new Set(['application/pdf', 'application/x-pdf']);

/** Whether a fetched body is a PDF (by its Content-Type). */
export function isPdf(fetched: Pick<FetchedBody, 'mediaType'>): boolean {
  return pdfMediaTypes.has(fetched.mediaType);
}

/** Text, HTML and the like, and PDFs (their text is read); anything else is refused with a clear reason. */
export const textPolicy: ContentTypePolicy = (mediaType) => {
  if (pdfMediaTypes.has(mediaType)) return undefined;
  if (mediaType.startsWith('text/') || ['application/xhtml+xml', 'application/json', 'application/xml', 'application/rss+xml', 'application/atom+xml'].includes(mediaType)) return undefined;
  if (mediaType === '') return undefined;
  return `it is ${mediaType}, not a web page, text or PDF`;
};

/** The text of a fetched body: the charset of Content-Type or of an HTML meta tag, else UTF-8. */
export function decodeText(fetched: FetchedBody): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(fetched.contentType)?.[1];
  const fromMeta = fromHeader ?? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(fetched.body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(fromMeta ?? 'utf-8').decode(fetched.body);
  } catch {
    return new TextDecoder('utf-8').decode(fetched.body);
  }
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** A fetcher bound to its options; `fetch` never reaches a refused address. */
export interface Fetcher {
  fetch(url: string, accept?: ContentTypePolicy): Promise<FetchedBody>;
}

/** Drops a body not read (undici reports a destroyed body as an error event: nobody listens). */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

export function shortUrl(url: URL | string): string {
  const text = String(url);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/**
 * The checked address a connection to `url` must go to: the scheme, credentials and port are
 * judged, the name resolved once, and every address it has judged by the guard (unless the
 * operator's allow-list names this host and port). Shared by the fetcher and the rendering
 * proxy of @browse (tools/guardedProxy.ts).
 */
export async function checkedAddress(url: URL, allowList: AllowList, resolver: Resolver): Promise<ResolvedAddress> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError('unsupported_scheme', `I only fetch http and https URLs, not ${url.protocol.replace(/:$/, '')}.`);
  if (url.username !== '' || url.password !== '') throw new FetchError('invalid_url', 'I do not fetch URLs with a user name or password in them.');
  const port = effectivePort(url);
  const allowed = allowList.allows(url.hostname, port);
  if (isBadPort(port) && !allowed) throw new FetchError('refused_port', `I can't fetch ${shortUrl(url)}: port ${port} belongs to another protocol.`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolver(host);
    } catch {
      throw new FetchError('not_found', `I can't find the site ${url.hostname}.`);
    }
    if (addresses.length === 0) throw new FetchError('not_found', `I can't find the site ${url.hostname}.`);
  }
  if (!allowed) {
    for (const entry of addresses) {
      const refusal = addressRefusal(entry.address);
      if (refusal !== undefined) {
        throw new FetchError('refused_address', `I can't fetch ${shortUrl(url)}: it leads to ${entry.address}, ${refusal}. I only reach public addresses.`);
      }
    }
  }
  return addresses[0] as ResolvedAddress;
}

export function createFetcher(options: FetcherOptions = {}): Fetcher {
  const allowList = new AllowList(options.allowHosts);
  const resolver = options.resolver ?? systemResolver;
  const timeoutMs = options.timeoutMs ?? defaultFetchTimeoutMs;
  const maxBytes = options.maxBytes ?? defaultFetchMaxBytes;
  const maxRedirects = options.maxRedirects ?? defaultMaxRedirects;

  /** An Agent whose every connection goes to `pinned`, whatever name undici asks for. */
  function pinnedAgent(pinned: ResolvedAddress, signal: AbortSignal): Agent {
    return new Agent({
      connections: 1,
      connect: {
        lookup: (_hostname: string, lookupOptions: { all?: boolean }, callback: (error: Error | null, address: unknown, family?: number) => void) => {
          if (signal.aborted) return callback(new Error('aborted'), undefined);
          if (lookupOptions.all === true) return callback(null, [{ address: pinned.address, family: pinned.family }]);
          return callback(null, pinned.address, pinned.family);
        },
      } as Record<string, unknown>,
    });
  }

  return {
    async fetch(input, accept = textPolicy) {
      let url: URL;
      try {
        url = new URL(input.trim());
      } catch {
        throw new FetchError('invalid_url', `That is not a URL I can fetch: ${shortUrl(input)}`);
      }
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      const agents: Agent[] = [];
      const timeout = () => new FetchError('timeout', `${shortUrl(url)} took longer than ${Math.round(timeoutMs / 100) / 10} s; I stopped.`);
      try {
        for (let hop = 0; ; hop += 1) {
          // A resolver that never answers is held to the same deadline.
          const pinned = await Promise.race([checkedAddress(url, allowList, resolver), new Promise<never>((_resolve, reject) => controller.signal.addEventListener('abort', () => reject(timeout()), { once: true }))]);
          const agent = pinnedAgent(pinned, controller.signal);
          agents.push(agent);
          let response: Awaited<ReturnType<typeof request>>;
          try {
            response = await request(url, {
              method: 'GET',
              dispatcher: agent,
              signal: controller.signal,
              headers: { 'user-agent': 'ConfabFetcher/1.0 (+https://github.com/confab)', accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/pdf;q=0.8,image/*;q=0.8,*/*;q=0.5', 'accept-encoding': 'identity' },
            });
          } catch (error) {
            if (controller.signal.aborted) throw timeout();
            throw new FetchError('network', `I could not reach ${shortUrl(url)} (${(error as { code?: string }).code ?? 'network error'}).`);
          }
          const location = response.headers['location'];
          if (redirectStatuses.has(response.statusCode) && typeof location === 'string') {
            discard(response.body);
            if (hop >= maxRedirects) throw new FetchError('too_many_redirects', `${shortUrl(input)} redirects more than ${maxRedirects} times; I stopped.`);
            try {
              url = new URL(location, url);
            } catch {
              throw new FetchError('invalid_url', `${shortUrl(url)} redirects to something that is not a URL.`);
            }
            continue;
          }
          if (response.statusCode < 200 || response.statusCode > 299) {
            discard(response.body);
            throw new FetchError('http_status', `${shortUrl(url)} answered ${response.statusCode}.`);
          }
          const contentTypeHeader = response.headers['content-type'];
          const contentType = (Array.isArray(contentTypeHeader) ? contentTypeHeader[0] : contentTypeHeader) ?? '';
          const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
          const refusal = accept(mediaType);
          if (refusal !== undefined) {
            discard(response.body);
            throw new FetchError('unsupported_type', `I can't use ${shortUrl(url)}: ${refusal}.`);
          }
          const tooLarge = () => new FetchError('too_large', `${shortUrl(url)} is larger than ${Math.round(maxBytes / 1024 / 1024 * 10) / 10} MB; I stopped.`);
          const declared = Number(response.headers['content-length'] ?? Number.NaN);
          if (Number.isFinite(declared) && declared > maxBytes) {
            discard(response.body);
            throw tooLarge();
          }
          const chunks: Buffer[] = [];
          let size = 0;
          try {
            for await (const chunk of response.body) {
              size += (chunk as Buffer).length;
              if (size > maxBytes) {
                discard(response.body);
                throw tooLarge();
              }
              chunks.push(chunk as Buffer);
            }
          } catch (error) {
            if (error instanceof FetchError) throw error;
            if (controller.signal.aborted) throw timeout();
            throw new FetchError('network', `The connection to ${shortUrl(url)} broke off.`);
          }
          return { url: url.href, status: response.statusCode, mediaType, contentType, body: Buffer.concat(chunks) };
        }
      } finally {
        clearTimeout(timer);
        for (const agent of agents) agent.destroy().catch(() => undefined);
      }
    },
  };
}
