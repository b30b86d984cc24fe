import { AppShell, ProfileScreen } from '@confab/chat-ui';
import { PrivateRoute } from './PrivateRoute';

/** /profile (private), inside the signed-in shell; back goes to '/'. */
export function ProfileRoute() {
  return (
    <PrivateRoute>
      <AppShell>
        <ProfileScreen backTo="/" />
      </AppShell>
    </PrivateRoute>
  );
}
