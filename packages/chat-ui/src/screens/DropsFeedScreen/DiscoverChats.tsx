import { useId } from 'react';
import { avatarColor, countLabel, messages } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { FollowButton } from '../../components/FollowButton/FollowButton';
import { chatDropsPath, dropsOf, useDropsStore } from '../../internal/dropsClient';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient } from '../../provider/hooks';

/** Discover's chats to follow (GET /api/discover/chats): each with its drops, followers and a Follow button. */
export function DiscoverChats() {
  const client = useConfabClient();
  const { Link } = useComponents();
  const headingId = useId();
  const { chats, loading, error } = useDropsStore((state) => state.discover);
  if (!loading && error === null && chats.length === 0) return null;
  return (
    <section className="cf-discover-chats" aria-labelledby={headingId}>
      <h2 id={headingId}>Chats to follow</h2>
      {error !== null ? (
        <Alert>
          {messages.discoverChatsFailed}{' '}
          <Button variant="ghost" onClick={() => void dropsOf(client).discoverChats().catch(() => {})}>
            Try again
          </Button>
        </Alert>
      ) : null}
      <ul className="cf-discover-chats__list">
        {chats.map((chat) => (
          <li key={chat.id} className="cf-discover-chats__chat">
            <span className="cf-avatar" aria-hidden="true" style={{ backgroundColor: avatarColor(chat.id) }}>
              {(chat.avatar || chat.name.charAt(0)).toUpperCase()}
            </span>
            <span className="cf-discover-chats__text">
              <Link to={chatDropsPath(chat.id)} className="cf-discover-chats__name">
                {chat.name}
              </Link>
              <span className="cf-discover-chats__meta">
                {countLabel(chat.drop_count, 'drop')} · {countLabel(chat.follower_count, 'follower')}
              </span>
            </span>
            <FollowButton chatId={chat.id} chatName={chat.name} />
          </li>
        ))}
      </ul>
    </section>
  );
}
