import { AppShell, ConfabAgentsScreen } from '@confab/chat-ui';
import { PrivateRoute } from '../layouts/PrivateRoute';

/** /admin/confab-agents (private): the screen itself tells non-admins it is for admins. */
export default function Page() {
  return (
    <PrivateRoute>
      <AppShell>
        <ConfabAgentsScreen backTo="/" />
      </AppShell>
    </PrivateRoute>
  );
}
