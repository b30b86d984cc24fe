/**
 * Parsing of search-result message bodies (docs/PRODUCT.md §3 "Search result data").
 *
 * Agents write these, so the shape is checked field by field: optional fields get defaults,
 * and anything malformed yields null so the caller shows the body as plain text rather than a
 * half-filled card. Result URLs end up in a "Visit Site" link, so only http(s) is accepted.
 */
import type { SearchResultItem, SearchResultsData } from '../types';

type Json = Record<string, unknown>;

/** Quick test before JSON.parse so ordinary messages do not pay for a failed parse. */
export function looksLikeJsonObject(content: string): boolean {
  const trimmed = content.trim();
  return trimmed.startsWith('{') && trimmed.endsWith('}');
}

/** The search-results data in `content`, or null when it is not a well-formed search result. */
export function parseSearchResults(value: unknown): SearchResultsData | null {
  if (!isObject(value) || value.type !== 'search_results') return null;
  if (!Array.isArray(value.results)) return null;
  const results: SearchResultItem[] = [];
  for (const [index, raw] of value.results.entries()) {
    const item = parseItem(raw, index);
    if (!item) return null;
    results.push(item);
  }
  const querySummary = optional(value.query_summary, isString, '');
  const totalResults = optional(value.total_results, isCount, results.length);
  const searchesPerformed = optional(value.searches_performed, isCount, 0);
  const createdAt = optional(value.created_at, isString, '');
  if (querySummary === null || totalResults === null || searchesPerformed === null || createdAt === null) return null;
  const data: SearchResultsData = {
    type: 'search_results',
    query_summary: querySummary,
    total_results: totalResults,
    searches_performed: searchesPerformed,
    created_at: createdAt,
    results,
  };
  if (value.metadata !== undefined && value.metadata !== null) {
    const metadata = parseMetadata(value.metadata);
    if (!metadata) return null;
    data.metadata = metadata;
  }
  return data;
}

function parseItem(raw: unknown, index: number): SearchResultItem | null {
  if (!isObject(raw) || !isString(raw.title) || !isString(raw.url)) return null;
  const url = safeHttpUrl(raw.url);
  if (!url) return null;
  const domain = optional(raw.domain, isString, url.hostname);
  const snippet = optional(raw.snippet, isString, '');
  const rank = optional(raw.rank, isFiniteNumber, index + 1);
  if (domain === null || snippet === null || rank === null) return null;
  const item: SearchResultItem = { title: raw.title, url: url.href, domain, snippet, rank };
  if (raw.relevance_score !== undefined && raw.relevance_score !== null) {
    if (!isFiniteNumber(raw.relevance_score)) return null;
    item.relevance_score = raw.relevance_score;
  }
  if (raw.source_query !== undefined && raw.source_query !== null) {
    if (!isString(raw.source_query)) return null;
    item.source_query = raw.source_query;
  }
  return item;
}

function parseMetadata(raw: unknown): SearchResultsData['metadata'] | null {
  if (!isObject(raw)) return null;
  const metadata: NonNullable<SearchResultsData['metadata']> = {};
  if (raw.truncated !== undefined) {
    if (typeof raw.truncated !== 'boolean') return null;
    metadata.truncated = raw.truncated;
  }
  if (raw.original_count !== undefined) {
    if (!isCount(raw.original_count)) return null;
    metadata.original_count = raw.original_count;
  }
  return metadata;
}

function safeHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** `fallback` when absent, the value when valid, null (malformed) otherwise. */
function optional<T>(value: unknown, check: (value: unknown) => value is T, fallback: T): T | null {
  if (value === undefined || value === null) return fallback;
  return check(value) ? value : null;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function isString(value: unknown): value is string {
  return typeof value === 'string';
}
function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
function isCount(value: unknown): value is number {
  return isFiniteNumber(value) && Number.isInteger(value) && value >= 0;
}
