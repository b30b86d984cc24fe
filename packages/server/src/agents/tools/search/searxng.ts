import { getJson, httpUrl, plainText, type SearchHit, type SearchOptions, type SearchProvider } from './types';

/**
 * SearXNG's JSON API: `GET {base}/search?q=…&format=json` (docs/PROTOCOLS.md,
 * Search providers). The instance must list `json` in `search.formats`, else it answers 403.
 * `number_of_results` is not required (newer instances dropped it).
 */
export class SearxngProvider implements SearchProvider {
  readonly name = 'SearXNG';

  constructor(private readonly baseUrl: string) {}

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const url = new URL(`${this.baseUrl}/search`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    url.searchParams.set('pageno', '1');
    const body = await getJson(this.name, url.href, { accept: 'application/json' }, options);
    const results = (body as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) return [];
    const hits: SearchHit[] = [];
    for (const raw of results as Array<Record<string, unknown> | null>) {
      const link = httpUrl(raw?.['url']);
      if (raw === null || link === undefined) continue;
      const score = raw['score'];
      hits.push({
        title: plainText(typeof raw['title'] === 'string' ? raw['title'] : '') || link,
        url: link,
        snippet: plainText(typeof raw['content'] === 'string' ? raw['content'] : ''),
        ...(typeof score === 'number' && Number.isFinite(score) ? { score } : {}),
      });
      if (hits.length >= (options.count ?? 10)) break;
    }
    return hits;
  }
}
