import { useEffect, useId, useState } from 'react';
import { toConfabError } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { chatsOf } from '../../internal/chatClient';
import { useConfabClient, useNavigate } from '../../provider/hooks';

export interface LeaveChatProps {
  chatId: string;
  chatName: string;
}

/** Shown when leaving fails for any reason the server does not explain. */
export const leaveChatFailed = 'Failed to leave chat.';

type Step = 'idle' | 'confirming' | 'leaving';

/**
 * Leave chat, after an inline confirmation (Cancel is focused; Escape cancels). On success the
 * chat leaves the list and the app goes to /chat. The server's refusals (the last admin, the only
 * participant) are shown as it words them, since they say what to do instead.
 */
export function LeaveChat({ chatId, chatName }: LeaveChatProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('idle');
  const [error, setError] = useState<string | null>(null);
  const questionId = useId();
  const cancelId = useId();
  const openerId = useId();

  useEffect(() => {
    if (step === 'confirming') document.getElementById(cancelId)?.focus();
  }, [step, cancelId]);

  const cancel = () => {
    setStep('idle');
    // Back to the button that asked, which is rendered again.
    setTimeout(() => document.getElementById(openerId)?.focus(), 0);
  };

  const leave = async () => {
    setStep('leaving');
    setError(null);
    try {
      await chatsOf(client).leave(chatId);
      navigate('/chat', { replace: true });
    } catch (failure) {
      const problem = toConfabError(failure);
      if (problem.isAbort) return;
      setError(problem.status === 400 && problem.serverMessage !== null ? problem.serverMessage : leaveChatFailed);
      setStep('idle');
    }
  };

  return (
    <div className="cf-options__leave">
      <p>Leaving takes this chat out of your list; only a new invitation brings you back.</p>
      {error !== null ? <Alert>{error}</Alert> : null}
      {step === 'idle' ? (
        <Button id={openerId} variant="danger" onClick={() => setStep('confirming')}>
          Leave chat
        </Button>
      ) : (
        <div
          className="cf-options__confirm"
          role="group"
          aria-labelledby={questionId}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && step === 'confirming') {
              event.stopPropagation();
              cancel();
            }
          }}
        >
          <p id={questionId}>
            <strong>Leave {chatName}?</strong>
          </p>
          <div className="cf-options__confirm-actions">
            <Button variant="danger" disabled={step === 'leaving'} onClick={() => void leave()}>
              {step === 'leaving' ? 'Leaving...' : 'Yes, leave chat'}
            </Button>
            <Button id={cancelId} variant="secondary" disabled={step === 'leaving'} onClick={cancel}>
              Cancel
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
