import { useId, useState, type FormEvent } from 'react';
import {
  constants,
  isTemporaryUsername,
  messages,
  needsAccountCompletion,
  normalizeCompleteAccount,
  toConfabError,
  validateCompleteAccount,
  type UserRecord,
} from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { AuthLayout } from '../../components/AuthLayout/AuthLayout';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { StatusMessage } from '../../components/StatusMessage/StatusMessage';
import { useRedirectAfter } from '../../internal/useRedirectAfter';
import { useConfabClient, useConfabStore, useNavigate } from '../../provider/hooks';

/** docs/PRODUCT.md §9: '/' 3 s after the account is completed. */
export const COMPLETE_ACCOUNT_REDIRECT_DELAY_MS = constants.redirectDelayMs.afterCompleteAccount;
/** Temporary accounts' e-mail domain (docs/CONTRACTS.md, Invitations and onboarding). */
export const TEMPORARY_EMAIL_DOMAIN = 'temporary.confab.invalid';

export function isTemporaryEmail(email: string | undefined): boolean {
  return (email ?? '').trim().toLowerCase().endsWith(`@${TEMPORARY_EMAIL_DOMAIN}`);
}

type Status = { kind: 'idle' } | { kind: 'submitting' } | { kind: 'error'; message: string } | { kind: 'success'; reauthenticated: boolean };

/**
 * /complete-account: 'Secure Your Account' for a soft-registered user without completed signup;
 * 'Account Already Complete' for everyone else.
 */
export function CompleteAccountPage() {
  const user = useConfabStore((state) => state.user);
  const navigate = useNavigate();
  const [completed, setCompleted] = useState<{ reauthenticated: boolean } | null>(null);
  useRedirectAfter(completed !== null, '/', COMPLETE_ACCOUNT_REDIRECT_DELAY_MS);

  if (completed !== null) {
    return (
      <AuthLayout title="Secure Your Account">
        <StatusMessage>{completed.reauthenticated ? 'Your account is secured! Taking you to your chats...' : messages.accountUpdatedLogInAgain}</StatusMessage>
      </AuthLayout>
    );
  }
  if (!needsAccountCompletion(user) || user === null) {
    return (
      <AuthLayout title="Account Already Complete" description="Your account is already set up. There is nothing more to do here.">
        <Button fullWidth onClick={() => navigate('/')}>
          Go to Dashboard
        </Button>
      </AuthLayout>
    );
  }
  return <SecureAccountForm user={user} onCompleted={(reauthenticated) => setCompleted({ reauthenticated })} />;
}

function SecureAccountForm({ user, onCompleted }: { user: UserRecord; onCompleted: (reauthenticated: boolean) => void }) {
  const client = useConfabClient();
  const errorId = useId();
  const [email, setEmail] = useState(isTemporaryEmail(user.email) ? '' : (user.email ?? ''));
  const [username, setUsername] = useState(isTemporaryUsername(user.username) ? '' : user.username);
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const busy = status.kind === 'submitting';

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const values = { email, username, password, confirmPassword };
    const invalid = validateCompleteAccount(values);
    if (invalid !== null) {
      setStatus({ kind: 'error', message: invalid });
      return;
    }
    const body = normalizeCompleteAccount(values);
    setStatus({ kind: 'submitting' });
    try {
      await client.account.completeAccount(body);
    } catch (error) {
      setStatus({ kind: 'error', message: toConfabError(error).message || messages.accountCompletionFailed });
      return;
    }
    let reauthenticated = true;
    try {
      await client.login(body.username, body.password);
    } catch {
      reauthenticated = false;
    }
    onCompleted(reauthenticated);
  };

  return (
    <AuthLayout title="Secure Your Account" description="Add your e-mail address and a password so you can sign in again and keep your chats.">
      <form className="cf-form" noValidate onSubmit={handleSubmit} aria-describedby={status.kind === 'error' ? errorId : undefined}>
        {status.kind === 'error' ? <Alert id={errorId}>{status.message}</Alert> : null}
        <FormField label="Email" name="email" type="email" autoComplete="email" required value={email} disabled={busy} onChange={(event) => setEmail(event.target.value)} />
        <FormField label="Username" name="username" autoComplete="username" required value={username} disabled={busy} onChange={(event) => setUsername(event.target.value)} />
        <FormField label="Password" name="password" type="password" autoComplete="new-password" hint="At least 8 characters." required value={password} disabled={busy} onChange={(event) => setPassword(event.target.value)} />
        <FormField label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" required value={confirmPassword} disabled={busy} onChange={(event) => setConfirmPassword(event.target.value)} />
        <Button type="submit" fullWidth disabled={busy} aria-busy={busy}>
          {busy ? 'Securing...' : 'Secure Account'}
        </Button>
      </form>
      <section className="cf-info" aria-labelledby={`${errorId}-next`}>
        <h2 id={`${errorId}-next`}>What happens next?</h2>
        <ul>
          <li>Your temporary account becomes a full account with this e-mail address and username.</li>
          <li>You stay in every chat you have joined.</li>
          <li>From now on you sign in with your username and the new password.</li>
        </ul>
      </section>
    </AuthLayout>
  );
}
