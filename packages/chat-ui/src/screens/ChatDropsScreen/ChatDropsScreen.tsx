import { useEffect, useState } from 'react';
import { avatarColor, countLabel, messages, type ClientState, type TimeAgoLocale } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { CreateDropModal } from '../../components/CreateDropModal/CreateDropModal';
import { DropCard } from '../../components/DropCard/DropCard';
import { FollowButton } from '../../components/FollowButton/FollowButton';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { dropsOf, useDropsStore } from '../../internal/dropsClient';
import { useDocumentTitle } from '../../internal/useDocumentTitle';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient, useConfabStore, useNavigate } from '../../provider/hooks';

export interface ChatDropsScreenProps {
  /** The chat of /chat/{id}/drops. */
  chatId: string;
  locale?: TimeAgoLocale | undefined;
  /** Appended to '<chat name> - Drops' in document.title; default ' - Confab'. */
  titleSuffix?: string | undefined;
}

const selectUserId = (state: ClientState) => state.user?.id ?? null;

/**
 * /chat/{id}/drops (docs/PRODUCT.md §2 Chat drops view): the chat's header with Follow / Following
 * and Create Drop (for its participants), its drops as cards, and 'No drops yet' with the hint to
 * ask @drops. document.title is '<chat name> - Drops - Confab'.
 */
export function ChatDropsScreen({ chatId, locale = 'en', titleSuffix = ' - Confab' }: ChatDropsScreenProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const { Spinner } = useComponents();
  const userId = useConfabStore(selectUserId);
  const view = useDropsStore((state) => state.chatDrops);
  const [attempt, setAttempt] = useState(0);
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    if (userId === null) return;
    setCreating(false);
    // store.chatDrops carries the outcome (notFound, error); the screen shows it.
    dropsOf(client).loadChatDrops(chatId).catch(() => {});
  }, [client, chatId, userId, attempt]);

  const current = view.chatId === chatId;
  const chat = current ? view.chat : null;
  useDocumentTitle(chat ? `${chat.name} - Drops${titleSuffix}` : null);

  if (current && view.notFound) {
    return (
      <section className="cf-page cf-chat-drops">
        <PageHeader title="Chat not found" backTo="/drops" backLabel="Back to drops" />
        <div className="cf-empty" role="alert">
          <h2>Chat not found</h2>
          <p>{messages.chatNotFoundForDrops}</p>
          <Button onClick={() => navigate('/drops')}>Go to Drops Feed</Button>
        </div>
      </section>
    );
  }
  if (chat === null) {
    const failed = current && view.error !== null && !view.loading;
    return (
      <section className="cf-page cf-chat-drops">
        <PageHeader title="Drops" backTo={`/chat/${encodeURIComponent(chatId)}`} backLabel="Back to chat" />
        {failed ? (
          <div className="cf-empty">
            <Alert>
              {messages.loadDropsFailed}{' '}
              <Button variant="ghost" onClick={() => setAttempt((count) => count + 1)}>
                Try again
              </Button>
            </Alert>
          </div>
        ) : (
          <p className="cf-drops__note" role="status">
            <Spinner size={18} /> Loading drops...
          </p>
        )}
      </section>
    );
  }

  // Drops published since the answer (created here, or live) count too.
  const dropCount = Math.max(chat.drop_count, view.drops.length);
  const backTo = chat.is_participant ? `/chat/${encodeURIComponent(chatId)}` : '/drops';
  return (
    <section className="cf-page cf-chat-drops">
      <PageHeader
        title={`${chat.name} Drops`}
        backTo={backTo}
        backLabel={chat.is_participant ? 'Back to chat' : 'Back to drops'}
        actions={
          <>
            <FollowButton chatId={chat.id} initialFollowing={chat.is_following} />
            {chat.is_participant ? <Button onClick={() => setCreating(true)}>Create Drop</Button> : null}
          </>
        }
      />
      <div className="cf-page__body">
        <div className="cf-chat-drops__intro">
          <span className="cf-avatar" aria-hidden="true" style={{ backgroundColor: avatarColor(chat.id) }}>
            {(chat.avatar || chat.name.charAt(0)).toUpperCase()}
          </span>
          <div>
            {chat.description ? <p className="cf-chat-drops__description">{chat.description}</p> : null}
            <p className="cf-chat-drops__meta">
              {countLabel(dropCount, 'drop')} · {countLabel(chat.follower_count, 'follower')}
            </p>
          </div>
        </div>
        {view.error !== null ? <Alert>{messages.loadDropsFailed}</Alert> : null}
        {view.drops.length === 0 ? (
          <div className="cf-drops__empty">
            <h2>{messages.noDropsYet}</h2>
            <p>{messages.noDropsYetHint}</p>
          </div>
        ) : (
          <div className="cf-drops__grid">
            {view.drops.map((drop) => (
              <DropCard key={drop.id} drop={drop} locale={locale} hideChat />
            ))}
          </div>
        )}
      </div>
      {creating ? <CreateDropModal chatId={chat.id} chatName={chat.name} onClose={() => setCreating(false)} /> : null}
    </section>
  );
}
