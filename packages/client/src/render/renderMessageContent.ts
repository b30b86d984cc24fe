/**
 * Turns a stored message body into something a UI can show safely (docs/PRODUCT.md §1): a
 * search-results card, a chart (protocol/charts.ts), sanitised HTML (from markdown or inline HTML),
 * or escaped plain text.
 *
 * The renderer never returns unsanitised HTML. When there is no DOM for DOMPurify to work on
 * (Node without jsdom) or when markdown/sanitising throws, the body comes back as `kind: 'text'`,
 * which a UI must show as text (React escapes it), never as HTML.
 */
import { Marked, type Tokens } from 'marked';
import type { ChartMessage } from '../protocol/charts';
import type { SearchResultsData } from '../types';
import { parseChart } from './charts';
import { sanitizerFor, type WindowLike } from './sanitizer';
import { looksLikeJsonObject, parseSearchResults } from './searchResults';

export type RenderedContent =
  | { kind: 'html'; html: string }
  | { kind: 'search_results'; data: SearchResultsData }
  | { kind: 'chart'; data: ChartMessage }
  | { kind: 'text'; text: string };

export type MessageRenderer = (content: string) => RenderedContent;
export type { WindowLike };

/**
 * GFM with single newlines as <br>, as chat users expect. Task-list checkboxes become glyphs:
 * `<input>` is not on the allow-list (no form controls in messages).
 */
const markdown = new Marked({ gfm: true, breaks: true, async: false });
markdown.use({
  renderer: {
    checkbox({ checked }: Tokens.Checkbox) {
      return checked ? '\u2611 ' : '\u2610 ';
    },
  },
});

/** Bodies remembered per renderer: a virtualised list re-renders rows as they scroll back in. */
const CACHE_SIZE = 500;

/**
 * A renderer bound to `window` (a browser window or a jsdom window in Node). It remembers the
 * last 500 bodies it rendered (least recently used first out); treat the results as read-only.
 *
 * @example
 * // Node: give it a DOM to sanitise with
 * import { JSDOM } from 'jsdom';
 * const render = createMessageRenderer(new JSDOM('').window);
 * render('**hi** <img src=x onerror=alert(1)>');
 * // → { kind: 'html', html: '<p><strong>hi</strong> <img src="x" loading="lazy" …></p>' }
 */
export function createMessageRenderer(window?: WindowLike): MessageRenderer {
  const cache = new Map<string, RenderedContent>();
  return (content) => {
    const cached = cache.get(content);
    if (cached !== undefined) {
      // Re-insert so Map order is least recently used first.
      cache.delete(content);
      cache.set(content, cached);
      return cached;
    }
    const rendered = render(content, window);
    cache.set(content, rendered);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    return rendered;
  };
}

let defaultRenderer: { window: WindowLike | undefined; render: MessageRenderer } | undefined;

/**
 * Renders with the global `window` when there is one (browsers, jsdom test environments).
 * Without a DOM every non-search body comes back as `{ kind: 'text' }`; use
 * createMessageRenderer(windowLike) to get HTML in Node.
 *
 * @example
 * const rendered = renderMessageContent(message.content);
 * if (rendered.kind === 'html') element.innerHTML = rendered.html; // already sanitised
 */
export function renderMessageContent(content: string): RenderedContent {
  const window = globalWindow();
  // Rebound when the global window changes (test environments swap it).
  if (defaultRenderer === undefined || defaultRenderer.window !== window) {
    defaultRenderer = { window, render: createMessageRenderer(window) };
  }
  return defaultRenderer.render(content);
}

function render(content: string, window: WindowLike | undefined): RenderedContent {
  if (looksLikeJsonObject(content)) {
    const parsed = parseJson(content);
    if (isSearchResultsShaped(parsed)) {
      const data = parseSearchResults(parsed);
      return data ? { kind: 'search_results', data } : { kind: 'text', text: content };
    }
    if (isChartShaped(parsed)) {
      const data = parseChart(parsed);
      return data ? { kind: 'chart', data } : { kind: 'text', text: content };
    }
  }
  const sanitize = window ? sanitizerFor(window) : null;
  if (!sanitize) return { kind: 'text', text: content };
  // Most chat lines are one plain sentence: markdown and the sanitiser would give back the line in
  // a paragraph, at several milliseconds a line in a page's first render. Same output, proven by
  // the property test beside this file.
  if (isPlainLine(content)) return { kind: 'html', html: `<p>${content}</p>` };
  try {
    return { kind: 'html', html: markdownToSafeHtml(content, sanitize) };
  } catch {
    return { kind: 'text', text: content };
  }
}

/** Markdown through marked, then the sanitiser: the path every body but a plain line takes. */
export function markdownToSafeHtml(content: string, sanitize: (html: string) => string): string {
  // marked ends blocks with a newline; trimmed so equal bodies give equal, compact strings.
  return sanitize(markdown.parse(content, { async: false })).trim();
}

/**
 * One line that markdown renders as a paragraph of exactly its own text, which is also safe as
 * HTML: letters, digits, emoji, spaces and the punctuation below, with none of markdown's syntax
 * (no `*_~\`[]<>&#|\\/@`, no newline), no leading or trailing space, no list marker ("- ",
 * "1." or "1)") at the start, and no "www." that GFM would make a link.
 */
const PLAIN_LINE = /^[\p{L}\p{N}\p{Extended_Pictographic}\u200D\uFE0F ,.'?!;:()"=+-]*$/u;
const BLOCK_START = /^(?:\s|-|=|\+|\d+[.)])/;

export function isPlainLine(content: string): boolean {
  return (
    content !== '' &&
    content.length <= 2_000 &&
    PLAIN_LINE.test(content) &&
    !BLOCK_START.test(content) &&
    !/\s$/.test(content) &&
    !/www\./i.test(content)
  );
}

function parseJson(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return undefined;
  }
}

/** JSON that claims to be a search result is judged as one, even when it turns out malformed. */
function isSearchResultsShaped(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'search_results';
}

/** Likewise a body that claims to be a chart: a malformed one shows as text, never as markdown. */
function isChartShaped(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'chart';
}

function globalWindow(): WindowLike | undefined {
  return typeof window === 'undefined' ? undefined : (window as unknown as WindowLike);
}
