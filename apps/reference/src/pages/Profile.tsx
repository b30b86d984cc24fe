import { AppShell, ProfileScreen } from '@confab/chat-ui';
import { PrivateRoute } from '../layouts/PrivateRoute';

/** /profile (private), inside the signed-in shell; back goes to '/'. */
export default function Page() {
  return (
    <PrivateRoute>
      <AppShell>
        <ProfileScreen backTo="/" />
      </AppShell>
    </PrivateRoute>
  );
}
