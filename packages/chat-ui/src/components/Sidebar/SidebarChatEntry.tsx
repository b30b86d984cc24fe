import { useId } from 'react';
import type { ChatRecord } from '@confab/client';
import { useAppLinks, usePrefetchIntent } from '../../provider/AppLinksContext';
import { isBrowserHandledClick } from '../Link/Link';
import { chatUnreadOf } from './chatUnread';

export interface SidebarChatEntryProps {
  chat: ChatRecord;
  /** The chat shown in the main area: highlighted, aria-current, and no unread state (it is being read). */
  active: boolean;
  onOpenChat: (chatId: string) => void;
}

/**
 * One chat of the sidebar, a link to it: its name (bold while something is unread) with a count
 * badge, and its description. The accessible name is the chat's name and its read state ('Launch
 * Plan, 3 unread, 1 mention'), the description its accessible description. A plain click opens it
 * through onOpenChat; a middle or modified click is the browser's (a new tab).
 */
export function SidebarChatEntry({ chat, active, onOpenChat }: SidebarChatEntryProps) {
  const intent = usePrefetchIntent();
  const { href } = useAppLinks();
  const path = `/chat/${encodeURIComponent(chat.id)}`;
  const descriptionId = useId();
  const { unread, spoken, badge } = chatUnreadOf(active ? {} : chat);
  const classes = ['cf-sidebar__chat', active && 'cf-sidebar__chat--active', unread && 'cf-sidebar__chat--unread'];
  // The name comes from the content, not aria-label: a label must contain the visible text (WCAG
  // 2.5.3), which the badge's number and the description are not.
  return (
    <a
      href={href(path)}
      className={classes.filter(Boolean).join(' ')}
      aria-current={active ? 'page' : undefined}
      aria-describedby={descriptionId}
      onClick={(event) => {
        if (isBrowserHandledClick(event, undefined)) return;
        event.preventDefault();
        onOpenChat(chat.id);
      }}
      {...intent(path)}
    >
      <span className="cf-sidebar__chat-line">
        {spoken === '' ? (
          <span className="cf-sidebar__chat-name">{chat.name}</span>
        ) : (
          <>
            <span className="cf-sidebar__chat-name" aria-hidden="true">
              {chat.name}
            </span>
            {/* One text node: the name reads 'Launch Plan, 3 unread' whatever the layout around it. */}
            <span className="cf-visually-hidden">{`${chat.name}${spoken}`}</span>
          </>
        )}
        {badge === null ? null : badge.kind === 'dot' ? (
          <span className="cf-sidebar__unread-dot" aria-hidden="true" />
        ) : (
          <span className={`cf-sidebar__unread-badge cf-sidebar__unread-badge--${badge.kind}`} aria-hidden="true">
            {badge.text}
          </span>
        )}
      </span>
      {/* Said as the description, after the name. */}
      <span id={descriptionId} className="cf-sidebar__chat-description" aria-hidden="true">
        {chat.description || 'No description'}
      </span>
    </a>
  );
}
