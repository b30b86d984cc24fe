import { memo, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import { avatarColor, type TimeAgoLocale } from '@confab/client';
import { renderContent, type ClientMessage } from '../../internal/chatClient';
import { LazyChartMessage, LazyMessagePart, LazySearchResultsCard } from '../../internal/lazyParts';
import { ProxiedHtml } from '../../internal/ProxiedHtml';
import { useNow } from '../../internal/useNow';
import type { SearchResultsCardProps } from '../SearchResultsCard/SearchResultsCard';
import { TimeAgo } from './TimeAgo';

export interface MessageProps {
  message: ClientMessage;
  /** Time-ago language; default 'en'. */
  locale?: TimeAgoLocale | undefined;
  /** Fixed reference time for time-ago (tests and stories); by default the shared clock, which ticks. */
  now?: number | undefined;
  /** Text to mark in a plain-text body (the chat search). */
  highlight?: string | undefined;
  /** Called with the client_id when 'Retry' is pressed on a failed message. */
  onRetry?: ((clientId: string) => void) | undefined;
}

/** Wraps every case-insensitive occurrence of `query` in <mark>. */
export function highlightText(text: string, query: string | undefined): ReactNode {
  const needle = query?.trim().toLowerCase() ?? '';
  if (needle === '') return text;
  const parts: ReactNode[] = [];
  const haystack = text.toLowerCase();
  let from = 0;
  let at = haystack.indexOf(needle);
  while (at !== -1) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(<mark key={at}>{text.slice(at, at + needle.length)}</mark>);
    from = at + needle.length;
    at = haystack.indexOf(needle, from);
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}

/**
 * One message: avatar (colour from the author id, green for agents), author, 'Agent' mark,
 * time-ago, and the body as renderMessageContent gives it (sanitised HTML, a search-results card,
 * a chart, or text). Pending messages say 'Sending...'; failed ones offer 'Retry'; an agent's streamed
 * reply grows in place with a 'typing...' mark (and aria-busy) until its final text replaces it.
 */
export const Message = memo(function Message({ message, locale = 'en', now, highlight, onRetry }: MessageProps) {
  const rendered = useMemo(() => renderContent(message.content), [message.content]);
  const author = message.author_name || message.author_username || 'Unknown';
  const status = message.status ?? 'sent';
  let body: ReactNode;
  // Search results and charts load their code on demand (few chats show them), in a box about
  // their height meanwhile, so the list barely moves when they arrive.
  if (rendered.kind === 'search_results') {
    body = (
      <LazyMessagePart className="cf-search-card" minHeight={160} loadingLabel="Loading search results..." failedLabel="These search results could not be shown.">
        <TickingSearchResults data={rendered.data} locale={locale} now={now} />
      </LazyMessagePart>
    );
  } else if (rendered.kind === 'chart') {
    body = (
      <LazyMessagePart className="cf-chart" minHeight={240} loadingLabel="Loading chart..." failedLabel="This chart could not be shown.">
        <LazyChartMessage.Component data={rendered.data} />
      </LazyMessagePart>
    );
  } else if (rendered.kind === 'html') {
    // Remount when the search changes, so the marks are applied to a fresh copy of the HTML.
    body = <HtmlBody key={highlight ?? ''} html={rendered.html} highlight={highlight} />;
  } else {
    body = <div className="cf-message__body cf-message__body--text">{highlightText(rendered.text, highlight)}</div>;
  }
  return (
    <article
      className={['cf-message', message.is_agent && 'cf-message--agent', `cf-message--${status}`].filter(Boolean).join(' ')}
      aria-label={`${author}${message.is_agent ? ' (Agent)' : ''}`}
      aria-busy={status === 'streaming' ? true : undefined}
    >
      <span className="cf-avatar cf-message__avatar" aria-hidden="true" style={{ backgroundColor: avatarColor(message.author_id, message.is_agent === true) }}>
        {author.charAt(0).toUpperCase()}
      </span>
      <div className="cf-message__main">
        <div className="cf-message__meta">
          <span className="cf-message__author">{author}</span>
          {message.is_agent ? <span className="cf-badge cf-badge--agent">Agent</span> : null}
          <TimeAgo className="cf-message__time" date={message.created_at} locale={locale} now={now} />
        </div>
        {body}
        {status === 'streaming' ? (
          <p className="cf-message__status cf-message__status--streaming">
            <span className="cf-typing" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>{' '}
            typing...
          </p>
        ) : null}
        {status === 'pending' ? (
          <p className="cf-message__status" role="status">
            Sending...
          </p>
        ) : null}
        {status === 'failed' ? (
          <p className="cf-message__status cf-message__status--failed" role="alert">
            Failed to send.{' '}
            <button type="button" className="cf-message__retry" onClick={() => message.client_id && onRetry?.(message.client_id)}>
              Retry
            </button>
          </p>
        ) : null}
      </div>
    </article>
  );
});

/** A search-results card whose time-ago follows the shared clock, like the message's own. */
function TickingSearchResults({ now, ...props }: SearchResultsCardProps) {
  return <LazySearchResultsCard.Component {...props} now={useNow(now)} />;
}

/**
 * Sanitised HTML from renderMessageContent (the client's DOMPurify allow-list), never anything
 * else. The search marks are added afterwards as DOM text nodes and <mark> elements only.
 */
function HtmlBody({ html, highlight }: { html: string; highlight?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (ref.current !== null) markMatches(ref.current, highlight);
  }, [highlight, html]);
  return <ProxiedHtml ref={ref} className="cf-message__body cf-message__body--html" html={html} />;
}

/** Wraps case-insensitive occurrences of `query` in the text nodes under `root` in <mark>. */
function markMatches(root: HTMLElement, query: string | undefined): void {
  const needle = query?.trim().toLowerCase() ?? '';
  if (needle === '') return;
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const textNodes: Text[] = [];
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) textNodes.push(node as Text);
  for (const node of textNodes) {
    const text = node.data;
    const lower = text.toLowerCase();
    let at = lower.indexOf(needle);
    if (at === -1) continue;
    const fragment = root.ownerDocument.createDocumentFragment();
    let from = 0;
    while (at !== -1) {
      if (at > from) fragment.append(text.slice(from, at));
      const mark = root.ownerDocument.createElement('mark');
      mark.textContent = text.slice(at, at + needle.length);
      fragment.append(mark);
      from = at + needle.length;
      at = lower.indexOf(needle, from);
    }
    if (from < text.length) fragment.append(text.slice(from));
    node.replaceWith(fragment);
  }
}
