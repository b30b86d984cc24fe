import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { avatarColor, type TimeAgoLocale } from '@confab/client';
import { renderContent, type ClientMessage } from '../../internal/chatClient';
import { LazyChartMessage, LazyFileMessageCard, LazyMessageActionPanel, LazyMessagePart, LazySearchResultsCard } from '../../internal/lazyParts';
import { ProxiedHtml } from '../../internal/ProxiedHtml';
import { useNow } from '../../internal/useNow';
import type { SearchResultsCardProps } from '../SearchResultsCard/SearchResultsCard';
import { SystemLine } from '../SystemLine/SystemLine';
import { EditedMark } from './EditedMark';
import { MessageActions, type MessageAction } from './MessageActions';
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
  /**
   * Offer Edit: the text is changed in place through client.messages.edit. MessageList offers it
   * on the signed-in person's own sent messages. Needs a ConfabProvider. Default false.
   */
  canEdit?: boolean | undefined;
  /**
   * Offer Delete: after a confirmation, client.messages.remove. MessageList offers it on the
   * person's own sent messages, and on every sent one to an admin of the chat. Needs a
   * ConfabProvider. Default false.
   */
  canDelete?: boolean | undefined;
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
 * time-ago, '(edited)' once edited, and the body as renderMessageContent gives it (sanitised HTML,
 * a search-results card, a chart, or text). Pending messages say 'Sending...'; failed ones offer
 * 'Retry'; an agent's streamed reply grows in place with a 'typing...' mark (and aria-busy) until
 * its final text replaces it. With `canEdit` or `canDelete`, Edit and Delete show on hover and
 * focus: Edit puts an editor in place of the body, Delete asks first; Escape leaves either.
 */
export const Message = memo(function Message(props: MessageProps) {
  // The one place file messages and system lines part from the others (docs/CONTRACTS.md, File
  // messages and system lines): a system line is a line of its own, never a bubble with actions.
  const { message } = props;
  if (message.message_type === 'system') {
    return <SystemLine line={message.system} fallback={message.content} createdAt={message.created_at} locale={props.locale} now={props.now} />;
  }
  return <AuthoredMessage {...props} />;
});

function AuthoredMessage({ message, locale = 'en', now, highlight, onRetry, canEdit = false, canDelete = false }: MessageProps) {
  const rendered = useMemo(() => renderContent(message.content), [message.content]);
  const author = message.author_name || message.author_username || 'Unknown';
  const status = message.status ?? 'sent';
  const [action, setAction] = useState<MessageAction | null>(null);
  const close = useCallback(() => setAction(null), []);
  // Open only while still allowed (someone no longer an admin loses the question on others' messages).
  const panel = action !== null && (action === 'edit' ? canEdit : canDelete) ? action : null;
  let body: ReactNode;
  // Search results and charts load their code on demand (few chats show them), in a box about
  // their height meanwhile, so the list barely moves when they arrive; so do the editor (in place
  // of the body) and the delete question, which few visits open.
  if (panel === 'edit') {
    body = null;
  } else if (message.file !== undefined) {
    body = (
      <LazyMessagePart className="cf-file-card" minHeight={72} loadingLabel="Loading file..." failedLabel="This file could not be shown.">
        <LazyFileMessageCard.Component file={message.file} />
      </LazyMessagePart>
    );
  } else if (rendered.kind === 'search_results') {
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
          {message.edited_at ? <EditedMark date={message.edited_at} locale={locale} /> : null}
        </div>
        {body}
        {panel !== null ? (
          <LazyMessagePart className="cf-message-panel" minHeight={96} loadingLabel="Loading..." failedLabel="This could not be loaded.">
            <LazyMessageActionPanel.Component action={panel} message={message} onDone={close} />
          </LazyMessagePart>
        ) : null}
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
      {canEdit || canDelete ? <MessageActions canEdit={canEdit} canDelete={canDelete} hidden={panel !== null} onAction={setAction} /> : null}
    </article>
  );
}

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
