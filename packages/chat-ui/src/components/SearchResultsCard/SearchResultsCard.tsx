import { useId, useState } from 'react';
import { constants, countLabel, markdownToPlainText, timeAgo, type SearchResultItem, type SearchResultsData, type TimeAgoLocale } from '@confab/client';
import { TimeLabel } from '../Message/TimeAgo';

export interface SearchResultsCardProps {
  data: SearchResultsData;
  /** Locale of the timestamp; default 'en'. */
  locale?: TimeAgoLocale | undefined;
  /** Reference time for the timestamp (tests and stories). */
  now?: number | undefined;
}

const { perPage, snippetMaxLength } = constants.searchResults;

/** docs/PRODUCT.md §9: snippets are cut to 150 characters (with an ellipsis when cut). */
export function cutSnippet(snippet: string): string {
  return snippet.length > snippetMaxLength ? `${snippet.slice(0, snippetMaxLength).trimEnd()}…` : snippet;
}

/**
 * A message whose body is search-result JSON (docs/PRODUCT.md §2 Search-results message card):
 * summary, counts, 'Truncated from N', timestamp, and the results 8 per page with
 * Previous/Next/numbers.
 */
export function SearchResultsCard({ data, locale = 'en', now }: SearchResultsCardProps) {
  const headingId = useId();
  const [page, setPage] = useState(1);
  const results = Array.isArray(data.results) ? data.results : [];
  const total = results.length;
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const current = Math.min(page, pageCount);
  const first = (current - 1) * perPage;
  const visible = results.slice(first, first + perPage);
  const resultCount = Number.isFinite(data.total_results) ? data.total_results : total;

  return (
    <section className="cf-search-card" aria-labelledby={headingId}>
      <header className="cf-search-card__header">
        <h3 id={headingId} className="cf-search-card__summary">
          {data.query_summary || 'Search results'}
        </h3>
        <p className="cf-search-card__meta">
          <span>{countLabel(resultCount, 'result')}</span>
          <span>{countLabel(data.searches_performed ?? 0, 'search', 'searches')}</span>
          {data.metadata?.truncated ? <span>Truncated from {data.metadata.original_count ?? resultCount}</span> : null}
          {data.created_at ? (
            <TimeLabel date={data.created_at} locale={locale}>
              {timeAgo(data.created_at, { locale, now })}
            </TimeLabel>
          ) : null}
        </p>
      </header>
      <ol className="cf-search-card__list" start={first + 1}>
        {visible.map((item, index) => (
          <SearchResultRow key={`${item.url}-${first + index}`} item={item} />
        ))}
      </ol>
      {total === 0 ? <p className="cf-search-card__empty">No results.</p> : null}
      <footer className="cf-search-card__footer">
        <p className="cf-search-card__range">
          Showing {total === 0 ? 0 : first + 1}-{first + visible.length} of {countLabel(total, 'result')}
        </p>
        {pageCount > 1 ? (
          <nav className="cf-pagination" aria-label="Search results pages">
            <button type="button" disabled={current === 1} onClick={() => setPage(current - 1)}>
              Previous
            </button>
            {Array.from({ length: pageCount }, (_, index) => index + 1).map((number) => (
              <button
                key={number}
                type="button"
                aria-label={`Page ${number}`}
                aria-current={number === current ? 'page' : undefined}
                onClick={() => setPage(number)}
              >
                {number}
              </button>
            ))}
            <button type="button" disabled={current === pageCount} onClick={() => setPage(current + 1)}>
              Next
            </button>
          </nav>
        ) : null}
      </footer>
    </section>
  );
}

function SearchResultRow({ item }: { item: SearchResultItem }) {
  const safeUrl = /^https?:\/\//i.test(item.url) ? item.url : undefined;
  return (
    <li className="cf-search-card__item">
      <div className="cf-search-card__item-head">
        <span className="cf-search-card__rank">#{item.rank}</span>
        <h4 className="cf-search-card__title">{item.title}</h4>
      </div>
      <p className="cf-search-card__domain">{item.domain}</p>
      {/* Snippets come from pages, files and drops written in markdown: shown as the words, not the marks. */}
      <p className="cf-search-card__snippet">{cutSnippet(markdownToPlainText(item.snippet ?? ''))}</p>
      <p className="cf-search-card__extra">
        {item.relevance_score === undefined || item.relevance_score === null ? null : (
          <span>Relevance: {Math.round(item.relevance_score * 100)}%</span>
        )}
        {item.source_query ? <span>Query: {item.source_query}</span> : null}
        {safeUrl ? (
          <a className="cf-search-card__visit" href={safeUrl} target="_blank" rel="noopener noreferrer" aria-label={`Visit Site: ${item.title}`}>
            Visit Site
          </a>
        ) : null}
      </p>
    </li>
  );
}
