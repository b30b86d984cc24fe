import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { TimeAgoLocale } from '@confab/client';
import { renderContent, type ClientMessage } from '../../internal/chatClient';
import { LazyChartMessage, LazyFileMessageCard, LazyMessageActionPanel, LazyMessagePart, LazySearchResultsCard } from '../../internal/lazyParts';
import { ProxiedHtml } from '../../internal/ProxiedHtml';
import { useNow } from '../../internal/useNow';
import type { SearchResultsCardProps } from '../SearchResultsCard/SearchResultsCard';
import { ReplyQuote, RepliesButton } from '../ReplyQuote/ReplyQuote';
import { MessageReactions } from '../Reactions/MessageReactions';
import { ReactionChips } from '../Reactions/ReactionChips';
import { SystemLine } from '../SystemLine/SystemLine';
import { MessageActions, type MessageAction } from './MessageActions';
import { authorLabelOf, MessageAvatar, MessageMeta } from './MessageHeader';

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
  /**
   * Let the signed-in person react: "Add reaction" opens the picker and the chips toggle their own
   * reaction, through client.messages.react / unreact. MessageList offers it on every sent
   * message. Needs a ConfabProvider. Default false (the chips only show).
   */
  canReact?: boolean | undefined;
  /** Offer Reply (docs/CONTRACTS.md, Replies): called with the message. Absent: no Reply. */
  onReply?: ((message: ClientMessage) => void) | undefined;
  /** Called with the message's id when its "N replies" is pressed. Absent: the count is not shown. */
  onOpenThread?: ((messageId: string) => void) | undefined;
  /** Called with the original's id when the reply's quote is pressed. */
  onJumpToMessage?: ((messageId: string) => void) | undefined;
  /** Marks the message for a moment (the original a quote led to). Default false. */
  highlighted?: boolean | undefined;
  /**
   * Continues the group of the message above (same author, a few minutes later): no avatar and no
   * name shown, the time of day appears in the avatar's place on hover and focus. Screen readers
   * still hear the author. MessageList decides (see docs/CONTRACTS.md, Message list). Default false.
   */
  grouped?: boolean | undefined;
  /**
   * Told when the editor or the delete question opens (true) and closes (false). MessageList keeps
   * such a message rendered while it is scrolled out of view, so a draft is not lost. Keep it stable.
   */
  onPanelOpenChange?: ((message: ClientMessage, open: boolean) => void) | undefined;
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
 * One message: avatar, author, 'Agent' mark, time-ago and '(edited)' (MessageHeader; `grouped`
 * leaves out avatar and name under the same author's message above), and the body as
 * renderMessageContent gives it (sanitised HTML, a search-results card, a chart, or text).
 * Pending messages say 'Sending...'; failed ones offer 'Retry'; an agent's streamed reply grows in
 * place with a 'typing...' mark (and aria-busy) until its final text replaces it; one that broke
 * off before its end (`cut_off`) says '(reply cut off)' under what arrived. With `canEdit` or
 * `canDelete`, Edit and Delete show on hover and focus: Edit puts an editor in place of the body,
 * Delete asks first; Escape leaves either.
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

function AuthoredMessage({
  message,
  locale = 'en',
  now,
  highlight,
  onRetry,
  canEdit = false,
  canDelete = false,
  canReact = false,
  onReply,
  onOpenThread,
  onJumpToMessage,
  highlighted = false,
  grouped = false,
  onPanelOpenChange,
}: MessageProps) {
  const rendered = useMemo(() => renderContent(message.content), [message.content]);
  const status = message.status ?? 'sent';
  const [action, setAction] = useState<MessageAction | null>(null);
  const close = useCallback(() => setAction(null), []);
  const articleRef = useRef<HTMLElement>(null);
  const closePicker = useCallback(() => {
    setAction(null);
    // Back to "Add reaction" once the bar shows again (a hidden button takes no focus).
    setTimeout(() => articleRef.current?.querySelector<HTMLElement>('.cf-message__actions [data-action="react"]')?.focus(), 0);
  }, []);
  // Only a stored message can be replied to (the server needs its id).
  const replyOffered = onReply !== undefined && status === 'sent' && message.seq !== null && !message.deleted_at;
  // Open only while still allowed (someone no longer an admin loses the question on others' messages).
  const allowed = { react: canReact, edit: canEdit, delete: canDelete } as const;
  const open = action !== null && allowed[action] ? action : null;
  const panel = open === 'react' ? null : open;
  const panelOpen = panel !== null;
  useEffect(() => {
    if (!panelOpen || onPanelOpenChange === undefined) return undefined;
    onPanelOpenChange(message, true);
    return () => onPanelOpenChange(message, false);
  }, [panelOpen, onPanelOpenChange, message]);
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
      ref={articleRef}
      className={['cf-message', message.is_agent && 'cf-message--agent', grouped && 'cf-message--grouped', `cf-message--${status}`, highlighted && 'cf-message--highlighted']
        .filter(Boolean)
        .join(' ')}
      data-message-id={message.message_id}
      aria-label={authorLabelOf(message)}
      aria-busy={status === 'streaming' ? true : undefined}
    >
      <MessageAvatar message={message} grouped={grouped} />
      <div className="cf-message__main">
        <MessageMeta message={message} grouped={grouped} locale={locale} now={now} />
        {message.reply_to_preview !== undefined ? <ReplyQuote preview={message.reply_to_preview} onJump={onJumpToMessage} /> : null}
        {body}
        {canReact ? (
          <MessageReactions message={message} pickerOpen={open === 'react'} onPickerClose={closePicker} />
        ) : (
          <ReactionChips reactions={message.reactions ?? []} />
        )}
        {onOpenThread !== undefined && (message.reply_count ?? 0) > 0 ? (
          <RepliesButton count={message.reply_count ?? 0} onOpen={() => onOpenThread(message.message_id)} />
        ) : null}
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
        {message.cut_off === true && status !== 'streaming' ? <p className="cf-message__status cf-message__status--cut-off">(reply cut off)</p> : null}
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
      {canReact || canEdit || canDelete || replyOffered ? (
        <MessageActions
          canReact={canReact}
          canEdit={canEdit}
          canDelete={canDelete}
          onReply={replyOffered ? () => onReply?.(message) : undefined}
          hidden={open !== null}
          onAction={setAction}
        />
      ) : null}
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
