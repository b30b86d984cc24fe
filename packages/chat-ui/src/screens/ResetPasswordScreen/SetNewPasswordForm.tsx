import { useId, useState, type FormEvent } from 'react';
import { constants, messages, resetPasswordErrorMessage, validateNewPassword } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { AuthLayout } from '../../components/AuthLayout/AuthLayout';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { StatusMessage } from '../../components/StatusMessage/StatusMessage';
import { failed, idle, submitting, succeeded, type FormStatus } from '../../internal/formStatus';
import { useRedirectAfter } from '../../internal/useRedirectAfter';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient } from '../../provider/hooks';

/** docs/PRODUCT.md §9: after a successful reset the user goes to /login after 2 s. */
export const RESET_REDIRECT_DELAY_MS = constants.redirectDelayMs.afterPasswordReset;

export interface SetNewPasswordFormProps {
  token: string;
}

/** The with-token half of ResetPasswordScreen. */
export function SetNewPasswordForm({ token }: SetNewPasswordFormProps) {
  const client = useConfabClient();
  const { Link } = useComponents();
  const errorId = useId();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [status, setStatus] = useState<FormStatus>(idle);
  const locked = status.kind === 'submitting' || status.kind === 'success';
  useRedirectAfter(status.kind === 'success', '/login', RESET_REDIRECT_DELAY_MS);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (locked) return;
    const invalid = validateNewPassword({ password, confirmPassword });
    if (invalid !== null) {
      setStatus(failed(invalid));
      return;
    }
    setStatus(submitting);
    try {
      await client.confirmPasswordReset(token, password, confirmPassword);
      setStatus(succeeded);
    } catch (error) {
      setStatus(failed(resetPasswordErrorMessage(error)));
    }
  };

  return (
    <AuthLayout title="Set New Password" description="Choose a new password for your account." footer={<Link to="/login">Back to Login</Link>}>
      <form className="cf-form" noValidate onSubmit={handleSubmit} aria-describedby={status.kind === 'error' ? errorId : undefined}>
        {status.kind === 'error' ? <Alert id={errorId}>{status.message}</Alert> : null}
        {status.kind === 'success' ? <StatusMessage>{messages.passwordResetSuccessful}</StatusMessage> : null}
        <FormField
          label="New Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 6 characters."
          required
          value={password}
          disabled={locked}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FormField
          label="Confirm New Password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          value={confirmPassword}
          disabled={locked}
          onChange={(event) => setConfirmPassword(event.target.value)}
        />
        <Button type="submit" fullWidth disabled={locked} aria-busy={status.kind === 'submitting'}>
          {status.kind === 'submitting' ? 'Resetting...' : 'Reset Password'}
        </Button>
      </form>
    </AuthLayout>
  );
}
