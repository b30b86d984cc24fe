import { useState } from 'react';
import { messages, validateShareableName, type Invitation } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { AuthLayout } from '../../components/AuthLayout/AuthLayout';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { useFormSubmission } from '../../internal/useFormSubmission';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient } from '../../provider/hooks';
import { joinLoginPath } from './joinPaths';

export interface JoinNameFormProps {
  token: string;
  invitation: Invitation;
  onJoined: (chatId: string, warning?: string) => void;
}

/**
 * Share link without a session: only a name; a temporary account is made and signed in. Someone
 * who already has an account signs in instead and comes back here to join as themselves.
 */
export function JoinNameForm({ token, invitation, onJoined }: JoinNameFormProps) {
  const client = useConfabClient();
  const { Link } = useComponents();
  const [name, setName] = useState('');
  const { error, busy, handle } = useFormSubmission(messages.joinChatFailed);

  const handleSubmit = handle(
    () => validateShareableName({ name }),
    async () => {
      const result = await client.invitations.acceptShareable(token, name);
      const chatId = result.chat_id || invitation.chat_id;
      if (result.temp_password && result.username) {
        try {
          await client.account.loginWithTemporaryPassword(result.username, result.temp_password);
        } catch {
          onJoined(chatId, 'You joined the chat, but signing you in failed. Please sign in.');
          return;
        }
      }
      onJoined(chatId);
    },
  );

  return (
    <AuthLayout
      title={`Join ${invitation.chat?.name ?? 'the chat'}`}
      description="Enter your name to join the conversation."
      footer={
        <>
          Already have an account? <Link to={joinLoginPath(token)}>Sign in instead</Link>
        </>
      }
    >
      <form className="cf-form" noValidate onSubmit={handleSubmit}>
        {error !== null ? <Alert>{error}</Alert> : null}
        <FormField label="Your name" name="name" autoComplete="name" required value={name} disabled={busy} onChange={(event) => setName(event.target.value)} />
        <Button type="submit" fullWidth disabled={busy} aria-busy={busy}>
          {busy ? 'Joining...' : 'Join Chat'}
        </Button>
      </form>
    </AuthLayout>
  );
}
