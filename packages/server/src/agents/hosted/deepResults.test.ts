import { describe, expect, it } from 'vitest';
import { deepRequest, plannedQueries } from './deep';
import { mergeRuns, searchResultsMessage } from './deepResults';

const hit = (url: string, snippet = '') => ({ title: url, url, snippet });

describe('mergeRuns', () => {
  it('fuses ranks: a page found by two searches beats one found once, duplicates merge', () => {
    const merged = mergeRuns([
      { query: 'a', source: 'SearXNG', hits: [hit('https://one.example/x'), hit('https://two.example/')] },
      { query: 'b', source: 'Brave Search', hits: [hit('https://www.two.example/#top', 'from brave'), hit('https://three.example/')] },
    ]);
    expect(merged.map((entry) => entry.url)).toEqual(['https://two.example/', 'https://one.example/x', 'https://three.example/']);
    expect(merged[0]).toMatchObject({ relevance: 1, sourceQuery: 'b', source: 'Brave Search', snippet: 'from brave' });
    expect(merged[1]?.relevance).toBeLessThan(1);
  });
});

describe('searchResultsMessage', () => {
  it('keeps as many results as fit and says it truncated', () => {
    const hits = mergeRuns([{ query: 'q', source: 'SearXNG', hits: Array.from({ length: 40 }, (_, index) => hit(`https://site${index}.example/page`, 'x'.repeat(400))) }]);
    const data = searchResultsMessage({ querySummary: 'q', searchesPerformed: 1, createdAt: new Date('2026-01-02T03:04:05Z'), hits, maxLength: 4000 });
    expect(JSON.stringify(data).length).toBeLessThanOrEqual(4000);
    expect(data.results.length).toBeGreaterThan(5);
    expect(data).toMatchObject({ type: 'search_results', total_results: 40, created_at: '2026-01-02T03:04:05.000Z', metadata: { truncated: true, original_count: 40 } });
    expect(data.results[0]).toMatchObject({ rank: 1, domain: 'site0.example', source_query: 'q' });
    expect(data.results[0]?.snippet.length).toBe(240);
  });
});

describe('requests and plans', () => {
  it('strips the mention and reads the plan line by line', () => {
    expect(deepRequest('@deep  heat  pumps @deep')).toBe('heat pumps');
    expect(plannedQueries('Queries:\n1. "heat pump cost"\n- heat pump cost\n* winter COP\n\nfourth one\nfifth', 'x')).toEqual(['heat pump cost', 'winter COP', 'fourth one']);
    expect(plannedQueries('  \n', 'fallback')).toEqual(['fallback']);
  });
});
