import { useEffect, useId, useRef, useState } from 'react';
import { toConfabError, type ClientState } from '@confab/client';
import { messagesOf, type ClientMessage } from '../../internal/chatClient';
import { useConfabClient, useConfabStore } from '../../provider/hooks';
import { Alert } from '../Alert/Alert';
import { Button } from '../Button/Button';

export interface DeleteMessageProps {
  /** The message to delete. */
  message: ClientMessage;
  /** Called once the question is answered (Escape is handled around it). */
  onDone: () => void;
}

/** Said when the server no longer knows the message, or refuses this person (no longer an admin). */
export const deleteGone = 'This message is already gone, or you may no longer delete it.';

const selectUserId = (state: ClientState) => state.user?.id ?? null;

/**
 * 'Delete this message? This cannot be undone.' under a message, with Delete and Cancel (focused,
 * the safe answer). Someone else's message (an admin of the chat deleting it) says whose it is.
 * Delete calls client.messages.remove with both buttons disabled meanwhile; the message then leaves
 * the list, and the focus goes to the list rather than nowhere. A failure is announced here.
 */
export function DeleteMessage({ message, onDone }: DeleteMessageProps) {
  const client = useConfabClient();
  const userId = useConfabStore(selectUserId);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const questionId = useId();
  const whoseId = `${questionId}-whose`;
  const someoneElses = message.author_id !== userId;

  // On Cancel when it opens, and again after a failed attempt (the disabled buttons lost the focus).
  useEffect(() => {
    if (!deleting) rootRef.current?.querySelector<HTMLButtonElement>('.cf-message-confirm__cancel')?.focus();
  }, [deleting]);

  const remove = async () => {
    setDeleting(true);
    setError(null);
    // The message is about to leave the list with the focus in it: the list (MessageList's log) takes it.
    const list = rootRef.current?.closest<HTMLElement>('[role="log"]');
    try {
      await messagesOf(client).remove(message.message_id);
      list?.focus({ preventScroll: true });
      onDone();
    } catch (failure) {
      const refused = toConfabError(failure);
      setError(refused.status === 404 ? deleteGone : refused.message);
      setDeleting(false);
    }
  };

  return (
    <div ref={rootRef} className="cf-message-confirm" role="group" aria-labelledby={questionId} aria-describedby={someoneElses ? whoseId : undefined}>
      <p id={questionId}>
        <strong>Delete this message?</strong> This cannot be undone.
      </p>
      {someoneElses ? (
        <p id={whoseId}>
          It is {message.author_name || message.author_username || 'someone else'}’s message: you can delete it as an admin of this chat.
        </p>
      ) : null}
      {error !== null ? <Alert>{error}</Alert> : null}
      <div className="cf-message-confirm__actions">
        <Button variant="danger" disabled={deleting} onClick={() => void remove()}>
          {deleting ? 'Deleting...' : 'Delete'}
        </Button>
        <Button className="cf-message-confirm__cancel" variant="secondary" disabled={deleting} onClick={onDone}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
