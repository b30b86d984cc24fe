import { ForgotPasswordScreen } from '@confab/chat-ui';

/** /forgot-password */
export default function Page() {
  return <ForgotPasswordScreen />;
}
