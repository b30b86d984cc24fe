import { maxMessageLength } from '@confab/client/protocol';
import type { SearchHit } from '../tools/search/types';

/** One result of the search-results message (docs/PRODUCT.md §3, search result data). */
export interface SearchResultItem {
  title: string;
  url: string;
  domain: string;
  snippet: string;
  rank: number;
  relevance_score: number;
  source_query: string;
}

/** The search-results message content, JSON in a message; the client renders it as a card (client/src/render/searchResults.ts). */
export interface SearchResultsData {
  type: 'search_results';
  query_summary: string;
  total_results: number;
  searches_performed: number;
  created_at: string;
  metadata: { truncated: boolean; original_count: number };
  results: SearchResultItem[];
}

/** One list of hits as one search answered it, best first. */
export interface SearchRun {
  query: string;
  /** 'SearXNG', 'Brave Search' or 'workspace'. */
  source: string;
  hits: SearchHit[];
}

/** A merged result: the hit, the query that ranked it best, and its fused relevance (0–1]. */
export interface RankedHit extends SearchHit {
  sourceQuery: string;
  source: string;
  relevance: number;
}

/** The same page found twice (http/https aside, a trailing slash, a #fragment) is one result. */
function urlKey(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return `${parsed.host.replace(/^www\./, '')}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`.toLowerCase();
  } catch {
    return url;
  }
}

/**
 * Reciprocal rank fusion over every run (k = 60, the usual constant): a page found by several
 * queries or providers, or near the top of one, ranks first; scores are scaled so the best is 1.
 */
export function mergeRuns(runs: readonly SearchRun[]): RankedHit[] {
  const merged = new Map<string, { hit: SearchHit; sourceQuery: string; source: string; best: number; fused: number }>();
  for (const run of runs) {
    run.hits.forEach((hit, index) => {
      const key = urlKey(hit.url);
      const contribution = 1 / (60 + index + 1);
      const entry = merged.get(key);
      if (entry === undefined) {
        merged.set(key, { hit, sourceQuery: run.query, source: run.source, best: index, fused: contribution });
        return;
      }
      entry.fused += contribution;
      if (index < entry.best) Object.assign(entry, { best: index, sourceQuery: run.query, source: run.source });
      if (entry.hit.snippet === '' && hit.snippet !== '') entry.hit = { ...entry.hit, snippet: hit.snippet };
    });
  }
  const entries = [...merged.values()].sort((a, b) => b.fused - a.fused);
  const top = entries[0]?.fused ?? 1;
  return entries.map((entry) => ({ ...entry.hit, sourceQuery: entry.sourceQuery, source: entry.source, relevance: Math.round((entry.fused / top) * 1000) / 1000 }));
}

function domainOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1).trimEnd()}…`;
}

/**
 * The search-results message (docs/PRODUCT.md §3, search result data), as many results as fit in one
 * message; `metadata.truncated` says when some were left out and `original_count` how many there were.
 */
export function searchResultsMessage(options: { querySummary: string; searchesPerformed: number; createdAt: Date; hits: readonly RankedHit[]; maxResults?: number; maxLength?: number }): SearchResultsData {
  const maxResults = options.maxResults ?? 30;
  const maxLength = options.maxLength ?? maxMessageLength;
  const data: SearchResultsData = {
    type: 'search_results',
    query_summary: cut(options.querySummary, 300),
    total_results: options.hits.length,
    searches_performed: options.searchesPerformed,
    created_at: options.createdAt.toISOString(),
    metadata: { truncated: false, original_count: options.hits.length },
    results: [],
  };
  let length = JSON.stringify(data).length;
  for (const [index, hit] of options.hits.slice(0, maxResults).entries()) {
    const item: SearchResultItem = {
      title: cut(hit.title, 200),
      url: hit.url,
      domain: domainOf(hit.url),
      snippet: cut(hit.snippet, 240),
      rank: index + 1,
      relevance_score: hit.relevance,
      source_query: hit.source === 'workspace' ? `${hit.sourceQuery} (this chat)` : hit.sourceQuery,
    };
    const itemLength = JSON.stringify(item).length + 1;
    if (length + itemLength > maxLength) break;
    data.results.push(item);
    length += itemLength;
  }
  data.metadata = { truncated: data.results.length < options.hits.length, original_count: options.hits.length };
  return data;
}
