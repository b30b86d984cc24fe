import { useSearchParams } from '../routing/engine';
import { ResetPasswordScreen } from '@confab/chat-ui';

/** /reset-password?token=… from the mailed link. */
export default function Page() {
  const searchParams = useSearchParams();
  return <ResetPasswordScreen token={searchParams.get('token')} />;
}
