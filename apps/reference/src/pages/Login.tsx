import { useSearchParams } from '../routing/engine';
import { LoginScreen, safeRedirectPath } from '@confab/chat-ui';

/** /login?redirect=/join/… : only same-origin paths are honoured, anything else goes to '/'. */
export default function Page() {
  const searchParams = useSearchParams();
  const redirectTo = safeRedirectPath(searchParams.get('redirect'), window.location.origin) ?? '/';
  return <LoginScreen redirectTo={redirectTo} />;
}
