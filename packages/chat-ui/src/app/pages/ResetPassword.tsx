import { useSearchParams } from '../router';
import { ResetPasswordScreen } from '../../screens/ResetPasswordScreen/ResetPasswordScreen';

/** /reset-password?token=… from the mailed link. */
export default function Page() {
  const searchParams = useSearchParams();
  return <ResetPasswordScreen token={searchParams.get('token')} />;
}
