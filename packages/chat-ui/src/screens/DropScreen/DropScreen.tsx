import { useEffect, useId, useState } from 'react';
import { avatarColor, countLabel, messages, toConfabError, type ClientState, type TimeAgoLocale } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { chatInitial, viewsLabel } from '../../components/DropCard/DropCard';
import { BookmarkButton, LikeButton } from '../../components/DropCard/DropReactions';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { chatDropsPath, dropsOf, useDropsStore } from '../../internal/dropsClient';
import { useDocumentTitle } from '../../internal/useDocumentTitle';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient, useConfabStore, useNavigate } from '../../provider/hooks';
import { DropContent } from './DropContent';
import { TimeAgo } from '../../components/Message/TimeAgo';

export interface DropScreenProps {
  /** The slug (or id) of /drops/{slug}. */
  slug: string;
  /** Where the back button goes; default the feed, '/drops'. */
  backTo?: string | undefined;
  /** Asks before deleting; default window.confirm. */
  confirm?: ((question: string) => boolean) | undefined;
  locale?: TimeAgoLocale | undefined;
  /** Appended to the drop's title in document.title; default ' - Drops - Confab'. */
  titleSuffix?: string | undefined;
}

const selectUserId = (state: ClientState) => state.user?.id ?? null;

/**
 * /drops/{slug} (docs/PRODUCT.md §2 Drop view): the chat's avatar and name (to its drops), the
 * date, title, the content rendered with the message sanitiser, stats for views, likes and minutes
 * to read, like and bookmark, and delete for its author or a chat admin (after asking). 'Drop not
 * found', or 'Failed to load drop' with Retry.
 */
export function DropScreen({ slug, backTo = '/drops', confirm = (question) => window.confirm(question), locale = 'en', titleSuffix = ' - Drops - Confab' }: DropScreenProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const { Link, Spinner } = useComponents();
  const userId = useConfabStore(selectUserId);
  const view = useDropsStore((state) => state.drop);
  const titleId = useId();
  const [attempt, setAttempt] = useState(0);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  useEffect(() => {
    if (userId === null) return;
    setDeleteError(null);
    // store.drop carries the outcome (notFound, error); the screen shows it.
    dropsOf(client).loadDrop(slug).catch(() => {});
  }, [client, slug, userId, attempt]);

  const current = view.key === slug;
  const drop = current ? view.drop : null;
  useDocumentTitle(drop ? `${drop.title}${titleSuffix}` : null);

  const remove = async () => {
    if (drop === null || deleting || !confirm(messages.deleteDropConfirmation)) return;
    setDeleting(true);
    setDeleteError(null);
    try {
      await dropsOf(client).deleteDrop(drop.id);
      navigate(chatDropsPath(drop.chat_id), { replace: true });
    } catch (failure) {
      setDeleteError(toConfabError(failure).message);
      setDeleting(false);
    }
  };

  if (current && view.notFound && drop === null) {
    return (
      <section className="cf-page cf-drop-view">
        <PageHeader title="Drop" backTo={backTo} backLabel="Back to drops" />
        <div className="cf-empty" role="alert">
          <h2>{messages.dropNotFound}</h2>
          <p>It may have been deleted, or the link is wrong.</p>
          <Button onClick={() => navigate('/drops')}>Go to Drops Feed</Button>
        </div>
      </section>
    );
  }
  if (current && view.error !== null && drop === null) {
    return (
      <section className="cf-page cf-drop-view">
        <PageHeader title="Drop" backTo={backTo} backLabel="Back to drops" />
        <div className="cf-empty">
          <Alert>{messages.loadDropFailed}</Alert>
          <Button onClick={() => setAttempt((count) => count + 1)}>Retry</Button>
        </div>
      </section>
    );
  }
  if (drop === null) {
    return (
      <section className="cf-page cf-drop-view">
        <PageHeader title="Drop" backTo={backTo} backLabel="Back to drops" />
        <p className="cf-drops__note" role="status">
          <Spinner size={18} /> Loading drop...
        </p>
      </section>
    );
  }

  return (
    <section className="cf-page cf-drop-view">
      <PageHeader backTo={backTo} backLabel="Back to drops" />
      <div className="cf-page__body">
        <article className="cf-drop-view__article" aria-labelledby={titleId}>
          <header className="cf-drop-view__header">
            <Link to={chatDropsPath(drop.chat_id)} className="cf-drop-card__chat-link">
              <span className="cf-avatar" aria-hidden="true" style={{ backgroundColor: avatarColor(drop.chat_id) }}>
                {chatInitial(drop)}
              </span>
              <span className="cf-drop-card__chat-name">{drop.chat_name}</span>
            </Link>
            <TimeAgo className="cf-drop-card__date" date={drop.published_at} locale={locale} />
          </header>
          <h1 id={titleId} className="cf-drop-view__title">
            {drop.title}
          </h1>
          {drop.author_name ? <p className="cf-drop-view__author">By {drop.author_name}</p> : null}
          <ul className="cf-drop-view__stats" aria-label="Stats">
            <li>{viewsLabel(drop.view_count)}</li>
            <li>{countLabel(drop.like_count, 'like')}</li>
            <li>{drop.reading_time} min read</li>
          </ul>
          <div className="cf-drop-view__actions">
            <LikeButton drop={drop} />
            <BookmarkButton drop={drop} />
            {drop.can_delete ? (
              <Button variant="danger" onClick={() => void remove()} aria-disabled={deleting || undefined}>
                {deleting ? 'Deleting...' : 'Delete'}
              </Button>
            ) : null}
          </div>
          {deleteError !== null ? <Alert>{deleteError}</Alert> : null}
          <DropContent content={drop.content || drop.excerpt} />
        </article>
      </div>
    </section>
  );
}
