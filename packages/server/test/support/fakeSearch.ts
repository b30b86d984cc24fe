import type { ServerResponse } from 'node:http';
import { startFakeProvider, type FakeProviderServer, type RecordedRequest } from './fakeProvider';

/**
 * Local SearXNG and Brave Search servers on 127.0.0.1 speaking their real JSON formats
 * (docs/PROTOCOLS.md, Search providers). Each answers a query with the next script,
 * else the default: three hits made from the query, so several queries give distinct results.
 */
export interface FakeHit {
  title: string;
  url: string;
  snippet: string;
}

export type SearchScript = { kind: 'hits'; hits: FakeHit[] } | { kind: 'from_query' } | { kind: 'error'; status: number };

export type FakeSearch = FakeProviderServer<SearchScript>;

/** The default hits for a query: https://{engine}.example/{slug}/{n}. */
export function hitsFor(engine: string, query: string): FakeHit[] {
  const slug = query.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return [1, 2, 3].map((n) => ({ title: `${query} (${engine} ${n})`, url: `https://${engine}.example/${slug}/${n}`, snippet: `What ${engine} knows about ${query}, part ${n}.` }));
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function queryOf(request: RecordedRequest): URLSearchParams {
  return new URL(request.path, 'http://fake').searchParams;
}

/** SearXNG `GET /search?q=…&format=json`: 403 without format=json, 400 `{"error":"No query"}` without q. */
export async function startFakeSearxng(): Promise<FakeSearch> {
  return startFakeProvider<SearchScript>({ kind: 'from_query' }, async (script, request, response) => {
    const params = queryOf(request);
    if (!request.path.startsWith('/search')) return json(response, 404, { error: 'Not found' });
    if (params.get('format') !== 'json') return json(response, 403, { error: 'format not allowed' });
    const query = params.get('q') ?? '';
    if (query === '') return json(response, 400, { error: 'No query' });
    if (script.kind === 'error') return json(response, script.status, { error: 'search error' });
    const hits = script.kind === 'hits' ? script.hits : hitsFor('searx', query);
    json(response, 200, {
      query,
      results: hits.map((hit, index) => {
        const url = new URL(hit.url);
        return {
          url: hit.url,
          title: hit.title,
          content: hit.snippet,
          engine: 'duckduckgo',
          engines: ['duckduckgo', 'brave'],
          score: Number((3 - index * 0.5).toFixed(2)),
          category: 'general',
          positions: [index + 1],
          parsed_url: [url.protocol.replace(':', ''), url.host, url.pathname, '', url.search.slice(1), ''],
          template: 'default.html',
          publishedDate: null,
          thumbnail: '',
          img_src: '',
          priority: '',
        };
      }),
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [`${query} news`],
      unresponsive_engines: [['google', 'timeout']],
    });
  });
}

/** Brave `GET /res/v1/web/search?q=…` needing `X-Subscription-Token: <token>`. */
export async function startFakeBrave(token: string): Promise<FakeSearch> {
  return startFakeProvider<SearchScript>({ kind: 'from_query' }, async (script, request, response) => {
    const params = queryOf(request);
    if (!request.path.startsWith('/res/v1/web/search')) return json(response, 404, { error: 'Not found' });
    // The error body is not verified (docs/PROTOCOLS.md, Search providers); the status is what the
    // provider reads.
    if (request.headers['x-subscription-token'] !== token) return json(response, 401, { error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' } });
    if (script.kind === 'error') return json(response, script.status, { error: { code: 'ERROR', detail: 'failed' } });
    const query = params.get('q') ?? '';
    const count = Number(params.get('count') ?? '10');
    const hits = (script.kind === 'hits' ? script.hits : hitsFor('brave', query)).slice(0, count);
    json(response, 200, {
      type: 'search',
      query: { original: query, more_results_available: true },
      web: {
        type: 'search',
        family_friendly: true,
        results: hits.map((hit) => {
          const url = new URL(hit.url);
          const words = hit.snippet.split(' ');
          return {
            type: 'search_result',
            subtype: 'generic',
            title: hit.title,
            url: hit.url,
            // text_decorations: highlight markup around a word, as Brave sends by default.
            description: [`<strong>${words[0] ?? ''}</strong>`, ...words.slice(1)].join(' '),
            is_source_local: false,
            is_source_both: false,
            language: 'en',
            family_friendly: true,
            age: '2 days ago',
            profile: { name: url.hostname, url: hit.url, long_name: url.hostname, img: '' },
            meta_url: { scheme: 'https', netloc: url.host, hostname: url.hostname, favicon: '', path: `› ${url.pathname.slice(1)}` },
            extra_snippets: [],
          };
        }),
      },
    });
  });
}
