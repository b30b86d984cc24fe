import { useId, useState, type FormEvent } from 'react';
import { loginErrorMessage, validateLogin } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { AuthLayout } from '../../components/AuthLayout/AuthLayout';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { failed, idle, submitting, type FormStatus } from '../../internal/formStatus';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient, useNavigate } from '../../provider/hooks';

export interface LoginScreenProps {
  /**
   * Where to go after signing in. The host reads it from `?redirect=` and must pass only
   * same-origin paths. Default '/'.
   */
  redirectTo?: string | undefined;
}

/** Sign in with username (or e-mail) and password. States: idle, submitting, error. */
export function LoginScreen({ redirectTo = '/' }: LoginScreenProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const { Link } = useComponents();
  const errorId = useId();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [status, setStatus] = useState<FormStatus>(idle);
  const busy = status.kind === 'submitting';

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateLogin({ username, password });
    if (invalid !== null) {
      setStatus(failed(invalid));
      return;
    }
    setStatus(submitting);
    try {
      await client.login(username.trim(), password);
      // Replace: the back button should not return a signed-in user to the form.
      navigate(redirectTo, { replace: true });
    } catch (error) {
      setStatus(failed(loginErrorMessage(error)));
    }
  };

  return (
    <AuthLayout
      title="Sign In"
      description="Welcome back. Sign in to continue to your chats."
      footer={
        <>
          <Link to="/forgot-password">Forgot password?</Link>
          <span>
            New to Confab? <Link to="/register">Create an account</Link>
          </span>
        </>
      }
    >
      {/* noValidate: the messages of docs/PRODUCT.md §5 replace the browser's built-in bubbles. */}
      <form className="cf-form" noValidate onSubmit={handleSubmit} aria-describedby={status.kind === 'error' ? errorId : undefined}>
        {status.kind === 'error' ? <Alert id={errorId}>{status.message}</Alert> : null}
        <FormField
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={username}
          disabled={busy}
          onChange={(event) => setUsername(event.target.value)}
        />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          disabled={busy}
          onChange={(event) => setPassword(event.target.value)}
        />
        <Button type="submit" fullWidth disabled={busy} aria-busy={busy}>
          {busy ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
    </AuthLayout>
  );
}
