import { useSearchParams } from '../router';
import { LoginScreen } from '../../screens/LoginScreen/LoginScreen';
import { safeRedirectPath } from '../../routing/paths';

/** /login?redirect=/join/… : only same-origin paths are honoured, anything else goes to '/'. */
export default function Page() {
  const searchParams = useSearchParams();
  const redirectTo = safeRedirectPath(searchParams.get('redirect'), window.location.origin) ?? '/';
  return <LoginScreen redirectTo={redirectTo} />;
}
