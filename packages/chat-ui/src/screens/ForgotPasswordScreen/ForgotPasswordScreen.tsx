import { useId, useState, type FormEvent } from 'react';
import { forgotPasswordErrorMessage, messages, validateForgotPassword } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { AuthLayout } from '../../components/AuthLayout/AuthLayout';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { StatusMessage } from '../../components/StatusMessage/StatusMessage';
import { failed, idle, submitting, succeeded, type FormStatus } from '../../internal/formStatus';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient } from '../../provider/hooks';

export interface ForgotPasswordScreenProps {
  /** Prefill the e-mail field, e.g. from a query parameter. */
  initialEmail?: string | undefined;
}

/** Ask for a password-reset e-mail. States: idle, submitting, error, success. */
export function ForgotPasswordScreen({ initialEmail = '' }: ForgotPasswordScreenProps) {
  const client = useConfabClient();
  const { Link } = useComponents();
  const errorId = useId();
  const [email, setEmail] = useState(initialEmail);
  const [status, setStatus] = useState<FormStatus>(idle);
  const busy = status.kind === 'submitting';

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateForgotPassword({ email });
    if (invalid !== null) {
      setStatus(failed(invalid));
      return;
    }
    setStatus(submitting);
    try {
      await client.requestPasswordReset(email.trim());
      setStatus(succeeded);
    } catch (error) {
      setStatus(failed(forgotPasswordErrorMessage(error)));
    }
  };

  return (
    <AuthLayout
      title="Forgot Password"
      description="Enter the e-mail address of your account and we'll send you a link to set a new password."
      footer={<Link to="/login">Back to Login</Link>}
    >
      {status.kind === 'success' ? (
        <StatusMessage>{messages.resetEmailSent}</StatusMessage>
      ) : (
        <form className="cf-form" noValidate onSubmit={handleSubmit} aria-describedby={status.kind === 'error' ? errorId : undefined}>
          {status.kind === 'error' ? <Alert id={errorId}>{status.message}</Alert> : null}
          <FormField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            disabled={busy}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Button type="submit" fullWidth disabled={busy} aria-busy={busy}>
            {busy ? 'Sending...' : 'Send Reset Link'}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
