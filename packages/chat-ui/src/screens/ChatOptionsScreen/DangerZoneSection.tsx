import { useState } from 'react';
import { messages } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { chatsOf } from '../../internal/chatClient';
import { useConfabClient, useNavigate } from '../../provider/hooks';
import { LeaveChat } from './LeaveChat';

export interface DangerZoneSectionProps {
  chatId: string;
  /** Shown in the leave confirmation. */
  chatName: string;
  /** Disables Delete Chat (admins only); every participant may leave. */
  disabled: boolean;
}

/** Leave chat, and Delete Chat after the confirmation of docs/PRODUCT.md §8; either goes back to /chat. */
export function DangerZoneSection({ chatId, chatName, disabled }: DangerZoneSectionProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const [failed, setFailed] = useState(false);

  const remove = async () => {
    if (!window.confirm(messages.deleteChatConfirmation)) return;
    setDeleting(true);
    setFailed(false);
    try {
      await chatsOf(client).remove(chatId);
      navigate('/chat', { replace: true });
    } catch {
      setFailed(true);
      setDeleting(false);
    }
  };

  return (
    <section className="cf-card cf-options__section cf-options__danger" aria-labelledby="cf-options-danger">
      <h2 id="cf-options-danger">Danger zone</h2>
      <LeaveChat chatId={chatId} chatName={chatName} />
      {failed ? <Alert>{messages.deleteChatFailed}</Alert> : null}
      <p>Deleting the chat removes its messages and files for everyone.</p>
      <Button variant="danger" disabled={disabled || deleting} onClick={remove}>
        {deleting ? 'Deleting...' : 'Delete Chat'}
      </Button>
    </section>
  );
}
