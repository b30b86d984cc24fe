import { useState } from 'react';
import { messages, validateCompleteSignup, validateCompleteSignupLink } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { AuthLayout } from '../../components/AuthLayout/AuthLayout';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { useFormSubmission } from '../../internal/useFormSubmission';
import { useConfabClient, useNavigate } from '../../provider/hooks';

export interface CompleteSignupPageProps {
  /** The query parameters of the /complete-signup link. */
  userId?: string | null | undefined;
  chatId?: string | null | undefined;
  tempPassword?: string | null | undefined;
}

/**
 * /complete-signup?user_id&chat_id&temp_password: a username and an optional display name, then
 * sign-in with the temporary password and on to /chat/{chat_id} (docs/PRODUCT.md §4).
 */
export function CompleteSignupPage({ userId, chatId, tempPassword }: CompleteSignupPageProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const { error, busy, handle } = useFormSubmission(messages.completeSignupFailed);
  const linkProblem = validateCompleteSignupLink({ userId: userId ?? null, chatId: chatId ?? null, tempPassword: tempPassword ?? null });

  if (linkProblem !== null || !userId || !chatId || !tempPassword) {
    return (
      <AuthLayout title="Complete Your Signup">
        <Alert>{linkProblem ?? messages.invalidSignupLink}</Alert>
        <Button fullWidth onClick={() => navigate('/login')}>
          Go to Login
        </Button>
      </AuthLayout>
    );
  }

  const handleSubmit = handle(
    () => validateCompleteSignup({ username }),
    async () => {
      await client.account.completeSignup({ userId, tempPassword, username, displayName });
      navigate(`/chat/${chatId}`);
    },
  );

  return (
    <AuthLayout title="Complete Your Signup" description="Choose how others see you in the chat.">
      <form className="cf-form" noValidate onSubmit={handleSubmit}>
        {error !== null ? <Alert>{error}</Alert> : null}
        <FormField label="Username" name="username" autoComplete="username" required value={username} disabled={busy} onChange={(event) => setUsername(event.target.value)} />
        <FormField
          label="Display Name (optional)"
          name="displayName"
          autoComplete="name"
          hint="Defaults to your username."
          value={displayName}
          disabled={busy}
          onChange={(event) => setDisplayName(event.target.value)}
        />
        <Button type="submit" fullWidth disabled={busy} aria-busy={busy}>
          {busy ? 'Saving...' : 'Complete Signup'}
        </Button>
      </form>
    </AuthLayout>
  );
}
