import { useEffect, useState } from 'react';
import { isChatAdmin, toConfabError, type ChatRecord, type ClientState } from '@confab/client';
import { Button } from '../../components/Button/Button';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { chatsOf } from '../../internal/chatClient';
import { useConfabClient, useConfabStore, useNavigate } from '../../provider/hooks';
import { AgentSettingsSection } from './AgentSettingsSection';
import { BrowserControlSection, useBrowserRendering } from './BrowserControlSection';
import { ChatInboxSection } from './ChatInboxSection';
import { DangerZoneSection } from './DangerZoneSection';
import { GeneralSettingsSection } from './GeneralSettingsSection';
import { MuteSection } from './MuteSection';
import { ParticipantsSection } from './ParticipantsSection';

export interface ChatOptionsScreenProps {
  chatId: string;
}

type Loaded = { kind: 'loading' } | { kind: 'not-found' } | { kind: 'error'; message: string } | { kind: 'ready' };

const selectUser = (state: ClientState) => state.user;

/**
 * /chat/{id}/options (docs/PRODUCT.md §2 Chat Options): the person's own mute switch, then general
 * settings, participants, agent settings, browser control, danger zone. Non-admins see every
 * control but mute (and Leave chat) disabled.
 */
export function ChatOptionsScreen({ chatId }: ChatOptionsScreenProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const user = useConfabStore(selectUser);
  const storeChat = useConfabStore(
    (state) => state.chats.find((chat) => chat.id === chatId) ?? (state.currentChat?.id === chatId ? state.currentChat : null),
  );
  const [fetched, setFetched] = useState<ChatRecord | null>(null);
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const userId = user?.id ?? null;
  const browserRendering = useBrowserRendering(client.baseUrl);

  // Always fetch: the list entry may be stale, and get() refreshes the store's copy too.
  useEffect(() => {
    if (userId === null) return undefined;
    let active = true;
    chatsOf(client)
      .get(chatId)
      .then((chat) => {
        if (!active) return;
        setFetched(chat);
        setLoaded({ kind: 'ready' });
      })
      .catch((error: unknown) => {
        const failure = toConfabError(error);
        if (!active || failure.isAbort) return;
        setLoaded(failure.status === 404 || failure.status === 403 ? { kind: 'not-found' } : { kind: 'error', message: failure.message });
      });
    return () => {
      active = false;
    };
  }, [client, chatId, userId]);

  // Updates land in the store (client.chats keeps it current); prefer that copy once it exists.
  const chat = storeChat ?? fetched;
  const back = `/chat/${encodeURIComponent(chatId)}`;

  if (loaded.kind === 'not-found' || (loaded.kind !== 'loading' && chat === null)) {
    return (
      <div className="cf-page">
        <PageHeader title="Chat Options" backTo="/chat" backLabel="Back to chats" />
        <div className="cf-empty" role="alert">
          <h2>Chat not found</h2>
          <p>This chat does not exist, or you are not one of its participants.</p>
          <Button onClick={() => navigate('/chat')}>Back to chats</Button>
        </div>
      </div>
    );
  }

  const header = <PageHeader title="Chat Options" backTo={back} backLabel="Back to chat" />;
  if (chat === null) {
    return (
      <div className="cf-page">
        {header}
        <p className="cf-page__body" role="status">
          Loading chat options...
        </p>
      </div>
    );
  }

  const isAdmin = isChatAdmin(chat, userId);
  return (
    <div className="cf-page">
      {header}
      <div className="cf-page__body cf-options">
        {loaded.kind === 'error' ? (
          <p className="cf-alert" role="alert">
            {loaded.message}
          </p>
        ) : null}
        <MuteSection chat={chat} />
        {isAdmin ? null : (
          <p className="cf-status cf-status--info" role="note">
            Only chat admins can change these settings.
          </p>
        )}
        <GeneralSettingsSection key={chat.id} chat={chat} disabled={!isAdmin} />
        <ParticipantsSection chat={chat} currentUserId={userId} disabled={!isAdmin} />
        <ChatInboxSection chat={chat} />
        <AgentSettingsSection chat={chat} disabled={!isAdmin} />
        <BrowserControlSection rendering={browserRendering} />
        <DangerZoneSection chatId={chat.id} chatName={chat.name} disabled={!isAdmin} />
      </div>
    </div>
  );
}
