/**
 * Web search providers @deep asks (docs/PROTOCOLS.md, Search providers): each turns one query into
 * hits, or throws a SearchError whose message is safe to show in the chat (no key, no provider
 * body).
 */

/** One result of a web search, as every provider answers it. */
export interface SearchHit {
  title: string;
  url: string;
  /** Plain text (highlight markup removed). */
  snippet: string;
  /** The provider's own score when it gives one (SearXNG); Brave gives none. */
  score?: number;
}

export interface SearchOptions {
  /** At most this many hits. Default 10. */
  count?: number;
  signal?: AbortSignal;
}

export interface SearchProvider {
  /** Shown in the chat, e.g. 'SearXNG'. */
  readonly name: string;
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
}

export class SearchError extends Error {
  constructor(
    readonly provider: string,
    message: string,
  ) {
    super(message);
    this.name = 'SearchError';
  }
}

/** Tags and entities out of a provider's snippet (Brave's `text_decorations` add `<strong>`). */
export function plainText(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_match, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' })[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Only http(s) links become results: the client shows them as a "Visit Site" link. */
export function httpUrl(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON GET with a timeout; failures become SearchErrors worded for the chat. */
export async function getJson(provider: string, url: string, headers: Record<string, string>, options: SearchOptions & { timeoutMs?: number } = {}): Promise<unknown> {
  const signals = [AbortSignal.timeout(options.timeoutMs ?? 15_000), ...(options.signal === undefined ? [] : [options.signal])];
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.any(signals) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new SearchError(provider, timedOut ? `${provider} did not answer in time.` : `${provider} could not be reached.`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    const reason = response.status === 401 || response.status === 403 ? 'refused the request (check its key or settings)' : response.status === 429 ? 'is rate limiting us' : `answered ${response.status}`;
    throw new SearchError(provider, `${provider} ${reason}.`);
  }
  try {
    return await response.json();
  } catch {
    throw new SearchError(provider, `${provider} answered something that is not JSON.`);
  }
}
