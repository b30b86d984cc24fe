import { useId, type MouseEvent } from 'react';
import { avatarColor, countLabel, type TimeAgoLocale, type WireDrop } from '@confab/client';
import { cardTags, chatDropsPath, dropPath } from '../../internal/dropsClient';
import { useProxiedImageSrc } from '../../internal/ProxiedHtml';
import { useComponents } from '../../provider/ComponentsContext';
import { useNavigate } from '../../provider/hooks';
import { BookmarkButton, LikeButton } from './DropReactions';
import { TimeAgo } from '../Message/TimeAgo';

export interface DropCardProps {
  drop: WireDrop;
  /** Relative-date language; default 'en'. */
  locale?: TimeAgoLocale | undefined;
  /** The reference time of the relative date; default now (stories and tests pin it). */
  now?: Date | number | undefined;
  /** Hide the chat header (the chat drops view, where every card is of the same chat). */
  hideChat?: boolean | undefined;
}

/**
 * docs/PRODUCT.md §2 Drop card: the chat's initial and name (to /chat/{chat_id}/drops), the
 * relative date, title, excerpt, featured image, up to 3 tags and '+N', like count, views, reading
 * time in minutes, and bookmark. The title links to /drops/{slug}; a click anywhere else on the
 * card (but its buttons and links) opens it too.
 */
export function DropCard({ drop, locale = 'en', now, hideChat = false }: DropCardProps) {
  const { Link } = useComponents();
  const navigate = useNavigate();
  const titleId = useId();
  const { shown, more } = cardTags(drop.tags);
  const open = (event: MouseEvent<HTMLElement>) => {
    // Links and buttons inside the card do their own thing.
    if (event.defaultPrevented || (event.target instanceof Element && event.target.closest('a, button') !== null)) return;
    navigate(dropPath(drop.slug));
  };
  return (
    // The whole card is a mouse shortcut for the title link, which keyboard users reach.
    <article className="cf-drop-card" aria-labelledby={titleId} onClick={open}>
      {hideChat ? null : (
        <header className="cf-drop-card__chat">
          <Link to={chatDropsPath(drop.chat_id)} className="cf-drop-card__chat-link">
            <span className="cf-avatar cf-drop-card__avatar" aria-hidden="true" style={{ backgroundColor: avatarColor(drop.chat_id) }}>
              {chatInitial(drop)}
            </span>
            <span className="cf-drop-card__chat-name">{drop.chat_name}</span>
          </Link>
          <TimeAgo className="cf-drop-card__date" date={drop.published_at} locale={locale} now={now instanceof Date ? now.getTime() : now} />
        </header>
      )}
      {drop.featured_image !== '' ? <FeaturedImage src={drop.featured_image} alt={drop.title} /> : null}
      <h3 id={titleId} className="cf-drop-card__title">
        <Link to={dropPath(drop.slug)}>{drop.title}</Link>
      </h3>
      {hideChat ? (
        <TimeAgo className="cf-drop-card__date" date={drop.published_at} locale={locale} now={now instanceof Date ? now.getTime() : now} />
      ) : null}
      {drop.excerpt !== '' ? <p className="cf-drop-card__excerpt">{drop.excerpt}</p> : null}
      {shown.length > 0 ? (
        <ul className="cf-drop-card__tags" aria-label="Tags">
          {shown.map((tag) => (
            <li key={tag} className="cf-drop-tag">
              #{tag}
            </li>
          ))}
          {more > 0 ? (
            <li className="cf-drop-tag cf-drop-tag--more" title={drop.tags.slice(shown.length).map((tag) => `#${tag}`).join(' ')}>
              +{more}
            </li>
          ) : null}
        </ul>
      ) : null}
      <footer className="cf-drop-card__footer">
        <LikeButton drop={drop} />
        <span className="cf-drop-card__stat">{viewsLabel(drop.view_count)}</span>
        <span className="cf-drop-card__stat">{drop.reading_time} min read</span>
        <BookmarkButton drop={drop} className="cf-drop-card__bookmark" />
      </footer>
    </article>
  );
}

/** The chat's avatar letter: chat_avatar, else the name's first letter. */
export function chatInitial(drop: Pick<WireDrop, 'chat_avatar' | 'chat_name'>): string {
  return (drop.chat_avatar || drop.chat_name.charAt(0) || '?').toUpperCase();
}

export function viewsLabel(count: number): string {
  return countLabel(count, 'view');
}

/** A remote featured image loads through the server's image proxy (docs/SECURITY.md C9). */
function FeaturedImage({ src, alt }: { src: string; alt: string }) {
  return <img className="cf-drop-card__image" src={useProxiedImageSrc(src)} alt={alt} loading="lazy" referrerPolicy="no-referrer" />;
}
