import { ForgotPasswordScreen } from '../../screens/ForgotPasswordScreen/ForgotPasswordScreen';

/** /forgot-password */
export default function Page() {
  return <ForgotPasswordScreen />;
}
