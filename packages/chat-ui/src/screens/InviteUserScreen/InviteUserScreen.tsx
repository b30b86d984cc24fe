import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  classifyInviteInput,
  constants,
  failureMessage,
  isChatAdmin,
  messages,
  shouldSearchInviteSuggestions,
  toConfabError,
  validateInviteInput,
  type ChatRecord,
  type ClientState,
  type UserSuggestion,
} from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { inviteAdminsOnlyHint } from '../../components/ChatHeader/ChatHeader';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { StatusMessage } from '../../components/StatusMessage/StatusMessage';
import { chatsOf } from '../../internal/chatClient';
import { useRedirectAfter } from '../../internal/useRedirectAfter';
import { useConfabClient, useConfabStore } from '../../provider/hooks';
import { ShareLinkSection } from './ShareLinkSection';

/** docs/PRODUCT.md §9: after an existing user is added, the chat opens 1.5 s later. */
export const INVITE_REDIRECT_DELAY_MS = constants.redirectDelayMs.afterInvite;

export interface InviteUserScreenProps {
  chatId: string;
}

type InviteStatus =
  | { kind: 'idle' }
  | { kind: 'submitting' }
  | { kind: 'error'; message: string }
  | { kind: 'added'; message: string }
  | { kind: 'invited'; message: string };

const selectUserId = (state: ClientState) => state.user?.id ?? null;

/**
 * The chat of the screen, from the store (the chat list, or the open chat) or else fetched once;
 * null while unknown or when it cannot be read (the invite answer then says what is wrong).
 */
function useChat(chatId: string, userId: string | null): ChatRecord | null {
  const client = useConfabClient();
  const storeChat = useConfabStore(
    (state) => state.chats.find((chat) => chat.id === chatId) ?? (state.currentChat?.id === chatId ? state.currentChat : null),
  );
  const [fetched, setFetched] = useState<ChatRecord | null>(null);
  const known = storeChat !== null;
  useEffect(() => {
    if (known || userId === null) return undefined;
    let active = true;
    chatsOf(client)
      .get(chatId)
      .then((chat) => active && setFetched(chat))
      .catch(() => {});
    return () => {
      active = false;
    };
  }, [client, chatId, userId, known]);
  return storeChat ?? (fetched?.id === chatId ? fetched : null);
}

/**
 * /chat/{id}/invite: one input for an e-mail (contains @ and a dot) or a username, with username
 * suggestions from 2 characters, and the share-link section. docs/PRODUCT.md §6 gives inviting to
 * chat admins: anyone else is told so instead of getting a form.
 */
export function InviteUserScreen({ chatId }: InviteUserScreenProps) {
  const userId = useConfabStore(selectUserId);
  const chat = useChat(chatId, userId);
  if (chat !== null && !isChatAdmin(chat, userId)) return <InviteNotAllowed chatId={chatId} />;
  return <InviteForm chatId={chatId} />;
}

function InviteNotAllowed({ chatId }: InviteUserScreenProps) {
  const titleId = useId();
  return (
    <section className="cf-page" aria-labelledby={titleId}>
      <PageHeader title={<span id={titleId}>Invite User</span>} backTo={`/chat/${chatId}`} backLabel="Back to chat" />
      <div className="cf-page__body">
        <div className="cf-card cf-form">
          <p className="cf-status cf-status--info" role="note">
            {inviteAdminsOnlyHint}
          </p>
          <p className="cf-page__intro">Ask an admin of this chat to invite the person you have in mind.</p>
        </div>
      </div>
    </section>
  );
}

function InviteForm({ chatId }: InviteUserScreenProps) {
  const client = useConfabClient();
  const errorId = useId();
  const [value, setValue] = useState('');
  const [suggestions, setSuggestions] = useState<UserSuggestion[]>([]);
  const [status, setStatus] = useState<InviteStatus>({ kind: 'idle' });
  const busy = status.kind === 'submitting' || status.kind === 'added';
  useRedirectAfter(status.kind === 'added', `/chat/${chatId}`, INVITE_REDIRECT_DELAY_MS);

  useEffect(() => {
    const target = classifyInviteInput(value);
    if (target === null || target.kind === 'email' || !shouldSearchInviteSuggestions(value)) {
      setSuggestions([]);
      return undefined;
    }
    const controller = new AbortController();
    client.invitations.searchUsers(value, controller.signal).then(
      (users) => setSuggestions(users.filter((user) => user.username !== value.trim())),
      () => setSuggestions([]),
    );
    return () => controller.abort();
  }, [client, value]);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateInviteInput(value);
    const target = classifyInviteInput(value);
    if (invalid !== null || target === null) {
      setStatus({ kind: 'error', message: invalid ?? messages.inviteInputRequired });
      return;
    }
    setStatus({ kind: 'submitting' });
    setSuggestions([]);
    try {
      const result = await client.invitations.inviteToChat(chatId, value);
      if (result.status === 'added') {
        const who = result.user?.name || result.user?.username || (target.kind === 'email' ? target.email : target.username);
        setStatus({ kind: 'added', message: `${who} has been added to the chat.` });
      } else {
        setStatus({ kind: 'invited', message: `Invitation sent to ${target.kind === 'email' ? target.email : target.username}.` });
        setValue('');
      }
    } catch (error) {
      const failure = toConfabError(error);
      if (failure.isAbort) return;
      // A 404 is an unknown username, or a chat the user is no longer in ('Chat not found').
      const chatGone = failure.status === 404 && failure.serverMessage === 'Chat not found';
      // Not an admin (any more), or too many invitations this hour: the server says what to do.
      const refused = (failure.status === 403 || failure.status === 429) && failure.serverMessage !== null;
      const message = chatGone
        ? 'Chat not found'
        : refused
          ? (failure.serverMessage ?? '')
          : target.kind === 'username'
            ? failure.status === 404
              ? messages.inviteUserNotFound
              : messages.inviteUserFailedPeriod
            : failureMessage(failure, messages.sendInvitationFailed);
      setStatus({ kind: 'error', message });
    }
  };

  return (
    <section className="cf-page" aria-labelledby={`${errorId}-title`}>
      <PageHeader title={<span id={`${errorId}-title`}>Invite User</span>} backTo={`/chat/${chatId}`} backLabel="Back to chat" />
      <div className="cf-page__body">
        <form className="cf-form cf-card" noValidate onSubmit={handleSubmit} aria-describedby={status.kind === 'error' ? errorId : undefined}>
          <p className="cf-page__intro">Invite someone by e-mail address or add an existing user by username.</p>
          {status.kind === 'error' ? <Alert id={errorId}>{status.message}</Alert> : null}
          {status.kind === 'added' || status.kind === 'invited' ? <StatusMessage>{status.message}</StatusMessage> : null}
          <FormField
            label="Email or username"
            name="invitee"
            autoComplete="off"
            required
            value={value}
            disabled={busy}
            onChange={(event) => {
              setValue(event.target.value);
              if (status.kind === 'error' || status.kind === 'invited') setStatus({ kind: 'idle' });
            }}
          />
          {suggestions.length > 0 ? (
            <ul className="cf-suggestions" aria-label="Suggestions">
              {suggestions.map((suggestion) => (
                <li key={suggestion.id}>
                  <button
                    type="button"
                    className="cf-suggestions__item"
                    onClick={() => {
                      setValue(suggestion.username);
                      setSuggestions([]);
                    }}
                  >
                    {suggestion.name ? `${suggestion.name} (@${suggestion.username})` : `@${suggestion.username}`}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <Button type="submit" disabled={busy} aria-busy={status.kind === 'submitting'}>
            {status.kind === 'submitting' ? 'Sending...' : 'Send Invite'}
          </Button>
        </form>
        <ShareLinkSection chatId={chatId} />
      </div>
    </section>
  );
}
