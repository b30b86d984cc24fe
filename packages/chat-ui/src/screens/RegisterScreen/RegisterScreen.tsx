import { useId, useState, type FormEvent } from 'react';
import { constants, registerErrorMessage, validateRegister } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { AuthLayout } from '../../components/AuthLayout/AuthLayout';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { StatusMessage } from '../../components/StatusMessage/StatusMessage';
import { failed, idle, submitting, succeeded, type FormStatus } from '../../internal/formStatus';
import { useRedirectAfter } from '../../internal/useRedirectAfter';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient } from '../../provider/hooks';

/** docs/PRODUCT.md §9: the new user lands in the app 0.5 s after registering. */
export const REGISTER_REDIRECT_DELAY_MS = constants.redirectDelayMs.afterRegister;

export interface RegisterScreenProps {
  /** Where the visitor came from (`?source=`), stored with the account for attribution. */
  source?: string | undefined;
  /** The visitor's self-declared kind (`?user_type=`), e.g. 'mixed'. */
  userType?: string | undefined;
}

interface RegisterValues {
  email: string;
  username: string;
  password: string;
  confirmPassword: string;
}

const emptyValues: RegisterValues = { email: '', username: '', password: '', confirmPassword: '' };

/** Create an account; on success the client is signed in and the user goes to '/' after 0.5 s. */
export function RegisterScreen({ source, userType }: RegisterScreenProps) {
  const client = useConfabClient();
  const { Link } = useComponents();
  const errorId = useId();
  const [values, setValues] = useState<RegisterValues>(emptyValues);
  const [status, setStatus] = useState<FormStatus>(idle);
  // Fields stay disabled after success too: the account exists, a second submit would only fail.
  const locked = status.kind === 'submitting' || status.kind === 'success';
  useRedirectAfter(status.kind === 'success', '/', REGISTER_REDIRECT_DELAY_MS);

  const update = (field: keyof RegisterValues) => (event: { target: { value: string } }) =>
    setValues((previous) => ({ ...previous, [field]: event.target.value }));

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (locked) return;
    const invalid = validateRegister(values);
    if (invalid !== null) {
      setStatus(failed(invalid));
      return;
    }
    setStatus(submitting);
    try {
      await client.register({
        email: values.email.trim(),
        username: values.username.trim(),
        password: values.password,
        passwordConfirm: values.confirmPassword,
        ...(source ? { source } : {}),
        ...(userType ? { userType } : {}),
      });
      setStatus(succeeded);
    } catch (error) {
      setStatus(failed(registerErrorMessage(error)));
    }
  };

  return (
    <AuthLayout
      title="Create Account"
      description="Start chatting with people and AI agents. It's free."
      footer={
        <span>
          Already have an account? <Link to="/login">Sign in</Link>
        </span>
      }
    >
      <form className="cf-form" noValidate onSubmit={handleSubmit} aria-describedby={status.kind === 'error' ? errorId : undefined}>
        {status.kind === 'error' ? <Alert id={errorId}>{status.message}</Alert> : null}
        {status.kind === 'success' ? <StatusMessage>Account created! Taking you to Confab...</StatusMessage> : null}
        <FormField label="Email" name="email" type="email" autoComplete="email" required value={values.email} disabled={locked} onChange={update('email')} />
        <FormField
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={values.username}
          disabled={locked}
          onChange={update('username')}
        />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          required
          value={values.password}
          disabled={locked}
          onChange={update('password')}
        />
        <FormField
          label="Confirm Password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          value={values.confirmPassword}
          disabled={locked}
          onChange={update('confirmPassword')}
        />
        <Button type="submit" fullWidth disabled={locked} aria-busy={status.kind === 'submitting'}>
          {status.kind === 'submitting' ? 'Creating account...' : 'Create Account'}
        </Button>
      </form>
    </AuthLayout>
  );
}
