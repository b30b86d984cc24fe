import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { searchResultsData } from '../../testing/builders';
import { cutSnippet, SearchResultsCard } from './SearchResultsCard';

const now = Date.parse('2026-01-05T12:30:00Z');

describe('SearchResultsCard', () => {
  it('shows the summary, counts, truncation note and timestamp', () => {
    render(<SearchResultsCard now={now} data={searchResultsData(12, { total_results: 57, metadata: { truncated: true, original_count: 57 } })} />);
    const card = screen.getByRole('region', { name: 'open-source vector databases' });
    expect(within(card).getByText('57 results')).toBeInTheDocument();
    expect(within(card).getByText('3 searches')).toBeInTheDocument();
    expect(within(card).getByText('Truncated from 57')).toBeInTheDocument();
    expect(within(card).getByText('30m ago')).toBeInTheDocument();
  });

  it('shows items with title, domain, cut snippet, rank, score, source query and a safe Visit Site link', () => {
    const data = searchResultsData(1);
    render(<SearchResultsCard now={now} data={data} />);
    const item = screen.getByRole('listitem');
    expect(within(item).getByRole('heading', { name: 'Result 1' })).toBeInTheDocument();
    expect(within(item).getByText('example1.com')).toBeInTheDocument();
    expect(within(item).getByText('#1')).toBeInTheDocument();
    expect(within(item).getByText('Relevance: 90%')).toBeInTheDocument();
    expect(within(item).getByText('Query: vector database comparison')).toBeInTheDocument();
    const snippet = data.results[0]?.snippet ?? '';
    expect(within(item).getByText(cutSnippet(snippet))).toBeInTheDocument();
    const link = within(item).getByRole('link', { name: 'Visit Site: Result 1' });
    expect(link).toHaveAttribute('href', 'https://example1.com/article');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('shows a snippet written in markdown as plain text, its punctuation as written', () => {
    const data = searchResultsData(1);
    data.results[0]!.snippet = '## Launch\n\nWe ship **2026-11-26**; press `shift-enter` for a [new line](https://example.com). See you _Monday_.';
    render(<SearchResultsCard now={now} data={data} />);
    const item = screen.getByRole('listitem');
    expect(within(item).getByText('Launch We ship 2026-11-26; press shift-enter for a new line. See you Monday.')).toBeInTheDocument();
    expect(item).not.toHaveTextContent(/\*\*|`|\]\(/);
  });

  it('agrees in number: one result, one search', () => {
    render(<SearchResultsCard now={now} data={searchResultsData(1, { searches_performed: 1 })} />);
    expect(screen.getByText('1 result')).toBeInTheDocument();
    expect(screen.getByText('1 search')).toBeInTheDocument();
    expect(screen.getByText('Showing 1-1 of 1 result')).toBeInTheDocument();
  });

  it('cuts snippets to 150 characters', () => {
    expect(cutSnippet('a'.repeat(150))).toBe('a'.repeat(150));
    expect(cutSnippet('a'.repeat(151))).toBe(`${'a'.repeat(150)}…`);
  });

  it('pages 8 at a time with Previous, Next and numbers', async () => {
    const user = userEvent.setup();
    render(<SearchResultsCard now={now} data={searchResultsData(20)} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(8);
    expect(screen.getByText('Showing 1-8 of 20 results')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Showing 9-16 of 20 results')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(4);
    expect(screen.getByText('Showing 17-20 of 20 results')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByText('Showing 9-16 of 20 results')).toBeInTheDocument();
  });

  it('has no pagination for one page, and never links a non-http URL', () => {
    const data = searchResultsData(2);
    const first = data.results[0];
    if (first) first.url = 'javascript:alert(1)';
    render(<SearchResultsCard now={now} data={data} />);
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(screen.getByText('Showing 1-2 of 2 results')).toBeInTheDocument();
  });
});
