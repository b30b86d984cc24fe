/**
 * The web search providers @deep asks (docs/PROTOCOLS.md, Search providers), against local SearXNG
 * and Brave servers that speak the real formats: the request each sends (format=json, the
 * subscription token), the hits they read, and failures as safe SearchErrors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BraveProvider } from '../src/agents/tools/search/brave';
import { configuredSearchProviders } from '../src/agents/tools/search/providers';
import { SearxngProvider } from '../src/agents/tools/search/searxng';
import { SearchError } from '../src/agents/tools/search/types';
import { resolveConfig } from '../src/config';
import { startFakeBrave, startFakeSearxng, type FakeSearch } from './support/fakeSearch';

let searxng: FakeSearch;
let brave: FakeSearch;

beforeAll(async () => {
  searxng = await startFakeSearxng();
  brave = await startFakeBrave('brave-token-1');
});

afterAll(async () => {
  await searxng?.close();
  await brave?.close();
});

describe('SearXNG', () => {
  it('asks /search with format=json and reads url, title, content and score', async () => {
    const hits = await new SearxngProvider(searxng.url).search('solar panels', { count: 2 });
    expect(hits).toEqual([
      { title: 'solar panels (searx 1)', url: 'https://searx.example/solar-panels/1', snippet: 'What searx knows about solar panels, part 1.', score: 3 },
      { title: 'solar panels (searx 2)', url: 'https://searx.example/solar-panels/2', snippet: 'What searx knows about solar panels, part 2.', score: 2.5 },
    ]);
    const sent = new URL(searxng.requests.at(-1)?.path ?? '', 'http://x');
    expect(sent.pathname).toBe('/search');
    expect(sent.searchParams.get('q')).toBe('solar panels');
    expect(sent.searchParams.get('format')).toBe('json');
  });

  it('skips results that are not http(s) links', async () => {
    searxng.enqueue({ kind: 'hits', hits: [{ title: 'bad', url: 'javascript:alert(1)', snippet: '' }, { title: 'good', url: 'http://ok.example/', snippet: 'ok' }] });
    const hits = await new SearxngProvider(searxng.url).search('x');
    expect(hits.map((hit) => hit.url)).toEqual(['http://ok.example/']);
  });

  it('turns a failure into a SearchError without the body', async () => {
    searxng.enqueue({ kind: 'error', status: 500 });
    const failure = await new SearxngProvider(searxng.url).search('x').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SearchError);
    expect((failure as Error).message).toBe('SearXNG answered 500.');
  });

  it('says so when nothing listens', async () => {
    const failure = await new SearxngProvider('http://127.0.0.1:9').search('x').catch((error: unknown) => error);
    expect((failure as Error).message).toBe('SearXNG could not be reached.');
  });
});

describe('Brave Search', () => {
  it('sends the key in X-Subscription-Token and count, and strips highlight markup', async () => {
    const hits = await new BraveProvider('brave-token-1', brave.url).search('heat pumps', { count: 2 });
    expect(hits).toEqual([
      { title: 'heat pumps (brave 1)', url: 'https://brave.example/heat-pumps/1', snippet: 'What brave knows about heat pumps, part 1.' },
      { title: 'heat pumps (brave 2)', url: 'https://brave.example/heat-pumps/2', snippet: 'What brave knows about heat pumps, part 2.' },
    ]);
    const request = brave.requests.at(-1);
    expect(request?.headers['x-subscription-token']).toBe('brave-token-1');
    const sent = new URL(request?.path ?? '', 'http://x');
    expect(sent.pathname).toBe('/res/v1/web/search');
    expect(sent.searchParams.get('count')).toBe('2');
  });

  it('reports a refused key without quoting it', async () => {
    const failure = await new BraveProvider('wrong-key', brave.url).search('x').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SearchError);
    expect((failure as Error).message).toBe('Brave Search refused the request (check its key or settings).');
    expect((failure as Error).message).not.toContain('wrong-key');
  });
});

describe('configuration', () => {
  it('has no provider by default, and one per setting', () => {
    expect(configuredSearchProviders(resolveConfig({ secret: 's', dataDir: '/tmp/confab-search-config' }))).toEqual([]);
    const config = resolveConfig({ secret: 's', dataDir: '/tmp/confab-search-config', searxngUrl: 'http://127.0.0.1:8888/', braveApiKey: ' key ', braveBaseUrl: 'http://127.0.0.1:1/' });
    expect(config.searxngUrl).toBe('http://127.0.0.1:8888');
    expect(config.braveApiKey).toBe('key');
    expect(config.braveBaseUrl).toBe('http://127.0.0.1:1');
    expect(configuredSearchProviders(config).map((provider) => provider.name)).toEqual(['SearXNG', 'Brave Search']);
  });
});
