import { getJson, httpUrl, plainText, type SearchHit, type SearchOptions, type SearchProvider } from './types';

/**
 * Brave Search's web endpoint: `GET {base}/res/v1/web/search?q=…&count=…` with the key in
 * `X-Subscription-Token` (docs/PROTOCOLS.md, Search providers). `web` may be absent;
 * descriptions carry highlight markup, removed here.
 */
export class BraveProvider implements SearchProvider {
  readonly name = 'Brave Search';

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl = 'https://api.search.brave.com',
  ) {}

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const count = Math.min(20, Math.max(1, options.count ?? 10));
    const url = new URL(`${this.baseUrl}/res/v1/web/search`);
    // Brave takes at most 400 characters and 50 words.
    url.searchParams.set('q', query.split(/\s+/).slice(0, 50).join(' ').slice(0, 400));
    url.searchParams.set('count', String(count));
    const body = await getJson(this.name, url.href, { accept: 'application/json', 'x-subscription-token': this.apiKey }, options);
    const results = (body as { web?: { results?: unknown } } | null)?.web?.results;
    if (!Array.isArray(results)) return [];
    const hits: SearchHit[] = [];
    for (const raw of results as Array<Record<string, unknown> | null>) {
      const link = httpUrl(raw?.['url']);
      if (raw === null || link === undefined) continue;
      hits.push({
        title: plainText(typeof raw['title'] === 'string' ? raw['title'] : '') || link,
        url: link,
        snippet: plainText(typeof raw['description'] === 'string' ? raw['description'] : ''),
      });
      if (hits.length >= count) break;
    }
    return hits;
  }
}
