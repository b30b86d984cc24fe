import { useId, useState, type FormEvent } from 'react';
import { toConfabError, validateChatCreation, type ClientState } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { chatsOf } from '../../internal/chatClient';
import { failed, idle, submitting, type FormStatus } from '../../internal/formStatus';
import { useConfabClient, useConfabStore, useNavigate } from '../../provider/hooks';

export interface CreateChatScreenProps {
  /** Back target of the header; spec §2: the new-chat screen goes back to '/'. */
  backTo?: string;
}

const selectUserId = (state: ClientState) => state.user?.id ?? null;

/** /chat/new (spec §2 Create New Chat): a chat name, then the new chat opens. */
export function CreateChatScreen({ backTo = '/' }: CreateChatScreenProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const userId = useConfabStore(selectUserId);
  const errorId = useId();
  const [name, setName] = useState('');
  const [status, setStatus] = useState<FormStatus>(idle);
  const busy = status.kind === 'submitting';

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateChatCreation({ name, userId });
    if (invalid !== null) {
      setStatus(failed(invalid));
      return;
    }
    setStatus(submitting);
    try {
      const chat = await chatsOf(client).create({ name: name.trim() });
      navigate(`/chat/${encodeURIComponent(chat.id)}`);
    } catch (error) {
      const failure = toConfabError(error);
      setStatus(failed(failure.message || 'Failed to create chat.'));
    }
  };

  return (
    <div className="cf-page">
      <PageHeader title="Create New Chat" backTo={backTo} />
      <div className="cf-page__body">
        <form className="cf-form cf-card" noValidate onSubmit={handleSubmit} aria-describedby={status.kind === 'error' ? errorId : undefined}>
          <p className="cf-page__intro">Name the chat; you can invite people and agents once it exists.</p>
          {status.kind === 'error' ? <Alert id={errorId}>{status.message}</Alert> : null}
          <FormField
            label="Chat name"
            name="name"
            autoComplete="off"
            required
            autoFocus
            value={name}
            disabled={busy}
            onChange={(event) => setName(event.target.value)}
          />
          <Button type="submit" disabled={busy}>
            {busy ? 'Creating...' : 'Create Chat'}
          </Button>
        </form>
      </div>
    </div>
  );
}
