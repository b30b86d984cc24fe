import { useId, useState } from 'react';
import { toConfabError, type ClientState, type PendingInvitation } from '@confab/client';
import { Button } from '../Button/Button';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient, useConfabStore } from '../../provider/hooks';

export interface PendingInvitationsProps {
  /** Opens the chat the user has just joined (the sidebar navigates to /chat/{id}). */
  onOpenChat: (chatId: string) => void;
}

const selectInvitations = (state: ClientState) => state.invitations;
const selectLoading = (state: ClientState) => state.invitationsLoading;
const selectError = (state: ClientState) => state.invitationsError;

/** Texts of the invitation list; the server's messages are not shown for these two actions. */
export const pendingInvitationTexts = {
  loadFailed: 'Failed to load invitations.',
  acceptFailed: 'Failed to accept the invitation. Please try again.',
  declineFailed: 'Failed to decline the invitation. Please try again.',
  gone: 'This invitation is no longer valid.',
} as const;

/** "Alice Liddell (@alice)", "@alice", or "someone" once the inviter's account is gone. */
export function inviterLabel(invitation: PendingInvitation): string {
  const inviter = invitation.invited_by;
  if (inviter === null) return 'someone';
  return inviter.name.trim() === '' ? `@${inviter.username}` : `${inviter.name} (@${inviter.username})`;
}

/**
 * The signed-in user's pending e-mail invitations, each with Accept and Decline. Reads
 * store.invitations, which client.invitations keeps current (invitations_changed frames); shows
 * nothing while there are none. Accepting joins the chat and opens it.
 */
export function PendingInvitations({ onOpenChat }: PendingInvitationsProps) {
  const client = useConfabClient();
  const { Spinner } = useComponents();
  const titleId = useId();
  const invitations = useConfabStore(selectInvitations);
  const loading = useConfabStore(selectLoading);
  const error = useConfabStore(selectError);
  // An invitation spent elsewhere (another tab, the mailed link) or expired: said once it is gone.
  const [notice, setNotice] = useState<string | null>(null);
  const onGone = () => {
    setNotice(pendingInvitationTexts.gone);
    void client.invitations.listPending().catch(() => {});
  };

  let body;
  if (invitations.length > 0) {
    body = (
      <ul>
        {invitations.map((invitation) => (
          <PendingInvitationItem key={invitation.id} invitation={invitation} onOpenChat={onOpenChat} onGone={onGone} />
        ))}
      </ul>
    );
  } else if (error !== null) {
    body = (
      <div className="cf-sidebar__error" role="alert">
        <p>{pendingInvitationTexts.loadFailed}</p>
        <Button variant="ghost" className="cf-sidebar__retry" onClick={() => void client.invitations.listPending().catch(() => {})}>
          Try again
        </Button>
      </div>
    );
  } else if (loading) {
    body = (
      <p className="cf-sidebar__empty" role="status">
        <Spinner size={14} /> Loading invitations...
      </p>
    );
  } else if (notice === null) {
    return null;
  }
  return (
    <section className="cf-sidebar__invitations" aria-labelledby={titleId}>
      <h2 id={titleId} className="cf-sidebar__section-title">
        Invitations
        {invitations.length > 0 ? (
          <>
            {' '}
            <span className="cf-badge cf-sidebar__count">{invitations.length}</span>
          </>
        ) : null}
      </h2>
      {notice !== null ? (
        <div className="cf-invitation__notice" role="alert">
          <p>{notice}</p>
          <Button variant="ghost" className="cf-invitation__button" onClick={() => setNotice(null)}>
            Dismiss
          </Button>
        </div>
      ) : null}
      {body}
    </section>
  );
}

interface PendingInvitationItemProps {
  invitation: PendingInvitation;
  onOpenChat: (chatId: string) => void;
  /** The server no longer knows the invitation (404). */
  onGone: () => void;
}

type ItemStatus = { kind: 'idle' } | { kind: 'accepting' } | { kind: 'declining' } | { kind: 'error'; message: string };

function PendingInvitationItem({ invitation, onOpenChat, onGone }: PendingInvitationItemProps) {
  const client = useConfabClient();
  const nameId = useId();
  const [status, setStatus] = useState<ItemStatus>({ kind: 'idle' });
  const busy = status.kind === 'accepting' || status.kind === 'declining';

  const act = async (kind: 'accepting' | 'declining') => {
    setStatus({ kind });
    try {
      if (kind === 'accepting') {
        const { chatId } = await client.invitations.acceptPending(invitation.id);
        onOpenChat(chatId);
      } else {
        await client.invitations.declinePending(invitation.id);
      }
    } catch (error) {
      const failure = toConfabError(error);
      if (failure.status === 404) {
        setStatus({ kind: 'idle' });
        onGone();
        return;
      }
      setStatus({ kind: 'error', message: kind === 'accepting' ? pendingInvitationTexts.acceptFailed : pendingInvitationTexts.declineFailed });
    }
  };

  return (
    <li className="cf-invitation" aria-labelledby={nameId}>
      <p className="cf-invitation__text">
        <span id={nameId} className="cf-sidebar__chat-name">
          {invitation.chat.name}
        </span>{' '}
        <span className="cf-sidebar__chat-description">Invited by {inviterLabel(invitation)}</span>
      </p>
      {status.kind === 'error' ? (
        <p className="cf-invitation__error" role="alert">
          {status.message}
        </p>
      ) : null}
      <div className="cf-invitation__actions">
        <Button
          className="cf-invitation__button"
          disabled={busy}
          aria-label={`${status.kind === 'accepting' ? 'Accepting' : 'Accept'} invitation to ${invitation.chat.name}`}
          onClick={() => void act('accepting')}
        >
          {status.kind === 'accepting' ? 'Accepting...' : 'Accept'}
        </Button>
        <Button
          variant="ghost"
          className="cf-invitation__button"
          disabled={busy}
          aria-label={`${status.kind === 'declining' ? 'Declining' : 'Decline'} invitation to ${invitation.chat.name}`}
          onClick={() => void act('declining')}
        >
          {status.kind === 'declining' ? 'Declining...' : 'Decline'}
        </Button>
      </div>
    </li>
  );
}
