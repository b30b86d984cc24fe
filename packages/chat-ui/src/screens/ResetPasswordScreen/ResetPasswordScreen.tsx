import { messages, validateResetToken } from '@confab/client';
import { AuthLayout } from '../../components/AuthLayout/AuthLayout';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { useNavigate } from '../../provider/hooks';
import { SetNewPasswordForm } from './SetNewPasswordForm';

export interface ResetPasswordScreenProps {
  /** The token from the mailed link (`/reset-password?token=…`); absent or empty shows an error. */
  token?: string | null | undefined;
}

/**
 * Set a new password from a mailed reset link. Without a token: 'Reset Your Password' with the
 * error and ways out; with one: the 'Set New Password' form, then /login after 2 s.
 */
export function ResetPasswordScreen({ token }: ResetPasswordScreenProps) {
  const navigate = useNavigate();
  // Blank counts as missing: a mangled link like `?token=` must not show a form that cannot work.
  if (!token || validateResetToken(token) !== null) {
    return (
      <AuthLayout title="Reset Your Password">
        <Alert>{messages.missingResetToken}</Alert>
        <div className="cf-stack">
          <Button fullWidth onClick={() => navigate('/forgot-password')}>
            Request New Reset
          </Button>
          <Button fullWidth variant="secondary" onClick={() => navigate('/login')}>
            Back to Login
          </Button>
        </div>
      </AuthLayout>
    );
  }
  return <SetNewPasswordForm token={token} />;
}
