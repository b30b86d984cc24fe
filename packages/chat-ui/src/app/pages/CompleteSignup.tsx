import { useSearchParams } from '../router';
import { CompleteSignupPage } from '../../screens/CompleteSignupPage/CompleteSignupPage';

/** /complete-signup?user_id=…&chat_id=…&temp_password=… */
export default function Page() {
  const searchParams = useSearchParams();
  return <CompleteSignupPage userId={searchParams.get('user_id')} chatId={searchParams.get('chat_id')} tempPassword={searchParams.get('temp_password')} />;
}
