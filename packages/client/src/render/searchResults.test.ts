import { describe, expect, it } from 'vitest';
import { looksLikeJsonObject, parseSearchResults } from './searchResults';

/** A minimal valid body; tests override single fields. */
function searchBody(overrides: Record<string, unknown> = {}) {
  return { type: 'search_results', results: [{ title: 'T', url: 'https://a.example/p' }], ...overrides };
}

describe('parseSearchResults', () => {
  it('fills missing optional fields with defaults', () => {
    expect(parseSearchResults(searchBody())).toEqual({
      type: 'search_results',
      query_summary: '',
      total_results: 1,
      searches_performed: 0,
      created_at: '',
      results: [{ title: 'T', url: 'https://a.example/p', domain: 'a.example', snippet: '', rank: 1 }],
    });
  });

  it('keeps metadata and optional item fields', () => {
    const data = parseSearchResults(
      searchBody({
        metadata: { truncated: true, original_count: 40 },
        results: [{ title: 'T', url: 'http://a.example', relevance_score: 0.5, source_query: 'q', rank: 3 }],
      }),
    );
    expect(data?.metadata).toEqual({ truncated: true, original_count: 40 });
    expect(data?.results[0]).toMatchObject({ relevance_score: 0.5, source_query: 'q', rank: 3 });
  });

  it.each([
    ['not an object', 'x'],
    ['wrong type', { ...searchBody(), type: 'other' }],
    ['results missing', { type: 'search_results' }],
    ['results not a list', searchBody({ results: {} })],
    ['item without url', searchBody({ results: [{ title: 'T' }] })],
    ['item with a script url', searchBody({ results: [{ title: 'T', url: 'javascript:alert(1)' }] })],
    ['item with a data url', searchBody({ results: [{ title: 'T', url: 'data:text/html,x' }] })],
    ['negative count', searchBody({ total_results: -1 })],
    ['string count', searchBody({ searches_performed: '2' })],
    ['non-numeric score', searchBody({ results: [{ title: 'T', url: 'https://a', relevance_score: 'high' }] })],
    ['bad metadata', searchBody({ metadata: { truncated: 'yes' } })],
  ])('rejects %s', (_name, value) => {
    expect(parseSearchResults(value)).toBeNull();
  });
});

describe('looksLikeJsonObject', () => {
  it('only accepts bodies wrapped in braces', () => {
    expect(looksLikeJsonObject('  {"a":1}\n')).toBe(true);
    expect(looksLikeJsonObject('hello {x}')).toBe(false);
  });
});
