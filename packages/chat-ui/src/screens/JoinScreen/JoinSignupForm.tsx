import { useState } from 'react';
import { messages, validateInvitationSignup, type Invitation } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { AuthLayout } from '../../components/AuthLayout/AuthLayout';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { useFormSubmission } from '../../internal/useFormSubmission';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient } from '../../provider/hooks';
import { joinLoginPath } from './joinPaths';

export interface JoinSignupFormProps {
  token: string;
  invitation: Invitation;
  onJoined: (chatId: string, warning?: string) => void;
}

/** E-mail invitation for a new person: create the account with the invited e-mail and join. */
export function JoinSignupForm({ token, invitation, onJoined }: JoinSignupFormProps) {
  const client = useConfabClient();
  const { Link } = useComponents();
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const { error, busy, handle } = useFormSubmission(messages.completeSignupFailed);

  const handleSubmit = handle(
    () => validateInvitationSignup({ username, password, confirmPassword }),
    async () => {
      const result = await client.invitations.acceptEmail(token, { username, password, display_name: displayName });
      const chatId = result.chat_id || invitation.chat_id;
      try {
        await client.login(result.username || username.trim(), password);
      } catch {
        // docs/PRODUCT.md §4: a failed automatic sign-in only warns.
        onJoined(chatId, 'Your account was created, but signing you in failed. Please sign in.');
        return;
      }
      onJoined(chatId);
    },
  );

  return (
    <AuthLayout
      title="Complete Your Signup"
      description={`You have been invited to ${invitation.chat?.name ?? 'a chat'}.`}
      footer={<Link to={joinLoginPath(token)}>Sign in instead</Link>}
    >
      <form className="cf-form" noValidate onSubmit={handleSubmit}>
        {error !== null ? <Alert>{error}</Alert> : null}
        <FormField label="Email" name="email" type="email" readOnly value={invitation.email} />
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
        <FormField label="Password" name="password" type="password" autoComplete="new-password" hint="At least 6 characters." required value={password} disabled={busy} onChange={(event) => setPassword(event.target.value)} />
        <FormField label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" required value={confirmPassword} disabled={busy} onChange={(event) => setConfirmPassword(event.target.value)} />
        <Button type="submit" fullWidth disabled={busy} aria-busy={busy}>
          {busy ? 'Joining...' : 'Create Account and Join'}
        </Button>
      </form>
    </AuthLayout>
  );
}
